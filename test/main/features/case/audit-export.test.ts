// The Audit screen's exports carry the audit chain: a solo desk's export checked offline as an examiner would
// (main/data/journal/audit-export.ts, and `npm run team -- verify-audit --file`). A team's: test/admin/verify-audit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runTeamCli } from '#admin/cli.ts';
import { auditSealer, GENESIS_HASH } from '#main/data/journal/audit-chain.ts';
import { AuditExportError, verifyAuditExport } from '#main/data/journal/audit-export.ts';
import { AuditChainError } from '#main/data/journal/audit-verify.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import { exportAudit } from '#main/features/case/audit-log.ts';
import { createFieldKey } from '#main/ground/crypto.ts';

const dirs: string[] = [];
const journals: Journal[] = [];
afterEach(async () => {
  for (const journal of journals.splice(0)) await journal.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-audit-export-'));
  dirs.push(dir);
  return dir;
}

/** A solo desk's journal with `n` entries: notes on c-1 and c-2 in turn, a retry every third. */
async function soloDesk(n: number) {
  const dataKey = createFieldKey();
  const journal = openJournal({ file: path.join(tempDir(), 'journal.db'), dataKey, actor: 'ada' });
  journals.push(journal);
  for (let i = 1; i <= n; i++) {
    await journal.audit.record({
      action: i % 3 ? 'note.add' : 'customer.retry',
      customerId: `c-${(i % 2) + 1}`,
      outcome: 'ok',
      detail: `note ${i}`,
    });
  }
  return { journal, sealer: auditSealer(dataKey) };
}

const jsonl = async (journal: Journal, filter = {}) =>
  (await exportAudit(journal, { filter, format: 'jsonl' })).content;

const problem = (text: string, sealer = auditSealer(createFieldKey())) => {
  try {
    return verifyAuditExport(text, sealer);
  } catch (error) {
    if (error instanceof AuditChainError || error instanceof AuditExportError) return error.message;
    throw error;
  }
};

const lines = (text: string) => text.trimEnd().split('\n');

describe('an audit export', () => {
  it('lists the entries oldest first with their chain, and ends with the chain’s head', async () => {
    const { journal, sealer } = await soloDesk(5);
    const head = await journal.audit.head();
    const records = lines(await jsonl(journal)).map((line) => JSON.parse(line));
    expect(records).toHaveLength(6);
    expect(records[0]).toEqual({
      seq: 1,
      at: expect.any(String),
      actor: 'ada',
      action: 'note.add',
      customerId: 'c-2',
      outcome: 'ok',
      detail: 'note 1',
      what: 'Note written',
      chain: {
        v: 1,
        prev: GENESIS_HASH,
        content: expect.any(String),
        hash: expect.any(String),
        seal: expect.any(String),
      },
    });
    expect(records[5]).toEqual({
      head: {
        seq: 5,
        hash: head.chainHash,
        seal: head.seal,
        keyCheck: sealer.keyCheck,
        entries: 5,
        filter: null,
      },
    });
    // The export is audited after the head it names.
    expect((await journal.audit.head()).seq).toBe(6);
  });

  it('verifies as the whole chain, its seals with the desk’s key; an empty log’s export too', async () => {
    const { journal, sealer } = await soloDesk(7);
    expect(verifyAuditExport(await jsonl(journal), sealer)).toEqual({
      entries: 7,
      whole: true,
      filter: null,
      head: { seq: 7, chainHash: (await journal.audit.linked({ limit: 7 }))[6]!.link.chainHash },
      sealed: true,
    });
    expect(verifyAuditExport(await jsonl(journal))).toMatchObject({ entries: 8, sealed: false });
    const empty = await soloDesk(0);
    expect(verifyAuditExport(await jsonl(empty.journal), empty.sealer)).toMatchObject({
      entries: 0,
      head: { seq: 0, chainHash: GENESIS_HASH },
    });
  });

  it('names the first entry changed, removed or moved in the file, and a file cut short', async () => {
    const { journal, sealer } = await soloDesk(6);
    const text = await jsonl(journal);
    const all = lines(text);
    expect(problem(text.replace('"detail":"note 4"', '"detail":"note four"'), sealer)).toBe(
      'entry 4 was changed: its content is not what was hashed when it was written',
    );
    expect(problem([...all.slice(0, 2), ...all.slice(3)].join('\n'), sealer)).toMatch(
      /^entry 4 does not follow entry 2 \(entry 3 missing\)/,
    );
    expect(problem([all[0], all[2], all[1], ...all.slice(3)].join('\n'), sealer)).toMatch(
      /^entry 3 does not follow entry 1/,
    );
    expect(problem(all.slice(0, -1).join('\n'), sealer)).toMatch(/does not end with the head record/);
    expect(problem(all.slice(0, 4).concat(all.slice(-1)).join('\n'), sealer)).toBe(
      'the log ends at entry 4 but its head is entry 6: entries 5–6 were removed',
    );
    expect(problem(text)).toMatch(/not the one this export's log was sealed with/);
    expect(problem(`not json\n${all.at(-1)}`, sealer)).toMatch(/Line 1 is not JSON/);
  });

  it('verifies a filtered export entry by entry, naming the filter, and finds entries out of order', async () => {
    const { journal, sealer } = await soloDesk(9);
    const text = await jsonl(journal, { customerId: 'c-1' });
    expect(verifyAuditExport(text, sealer)).toMatchObject({
      entries: 4,
      whole: false,
      filter: { customerId: 'c-1' },
    });
    const all = lines(text);
    expect(problem([all[1], all[0], ...all.slice(2)].join('\n'), sealer)).toBe(
      'entry 2 comes after entry 4: the entries were reordered',
    );
  });

  it('carries each entry’s seq and chain hash in CSV too, oldest first', async () => {
    const { journal } = await soloDesk(3);
    const csv = (await exportAudit(journal, { filter: {}, format: 'csv' })).content.trimEnd().split('\r\n');
    expect(csv[0]).toBe('Entry,When,Who,What,Action,Customer,Outcome,Detail,Chain hash');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(['1', '2', '3']);
    const chain = (await journal.audit.linked({ limit: 3 })).map((entry) => entry.link.chainHash);
    expect(csv.slice(1).map((line) => line.split(',').at(-1))).toEqual(chain);
  });

  it('is checked by `npm run team -- verify-audit --file`, a solo desk’s without a key file', async () => {
    const { journal } = await soloDesk(4);
    const file = path.join(tempDir(), 'audit.jsonl');
    fs.writeFileSync(file, await jsonl(journal));
    let out = '';
    let err = '';
    const code = await runTeamCli(['verify-audit', '--file', file], {
      out: (text) => (out += text),
      err: (text) => (err += text),
    });
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toMatch(/^OK: the export holds the whole audit chain, 4 entries from its start to its head/);
    expect(out).toMatch(/^Head: 4:[0-9a-f]{64}$/m);
  });
});
