// A rotation of the team key begins a new audit seal key (#37): the chain records where it begins, each
// stretch verifies with its own key (in the store and in an export), a desk still on the old key cannot
// append under the old audit key, and a leaver who kept the old key cannot re-seal a chain rewritten after
// the rotation: the forgery is found and named.
import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditSealer, linkAfter } from '#main/data/journal/audit-chain.ts';
import { exportAudit } from '#main/features/case/audit-log.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import { initTeamStore, runTeam, type TestStore, tempPath } from '#test/support/team/admin-support.ts';
import { connectTo, type Desk, openDesk } from '#test/support/team/team-journal.ts';

let store: TestStore;
let oldKey: Buffer;
/** A desk that opened before the rotation, and one that joined after it. */
let stale: Desk;
let fresh: Desk;

const keyNow = () => decodeTeamKey(fs.readFileSync(store.keyFile, 'utf8'));
const record = (desk: Desk, detail: string) =>
  desk.journal.audit.record({ action: 'note.add', customerId: 'c-1', outcome: 'ok', detail });
const verify = () => runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile);

beforeEach(async () => {
  store = await initTeamStore();
  oldKey = keyNow();
  stale = await openDesk({ url: store.url, teamKey: oldKey });
  for (let i = 1; i <= 3; i++) await record(stale, `before ${i}`);
  const run = await runTeam('rotate-key', '--database', store.url, '--key-file', store.keyFile);
  expect(run, run.err).toMatchObject({ code: 0 });
  fresh = await openDesk({ url: store.url, teamKey: keyNow() });
  for (let i = 1; i <= 3; i++) await record(fresh, `after ${i}`);
});

/** The chain's entries from `seq` on, as the store holds them. */
async function entriesFrom(seq: number) {
  const owner = await connectTo(store.url);
  const { rows } = await owner.query(
    `SELECT ${LINKED_COLUMNS}, audit_key FROM vetted.audit_log WHERE seq >= $1 ORDER BY seq`,
    [seq],
  );
  return { owner, rows, entries: parseRows(LinkedRowSchema, 'audit_log', rows) };
}

/**
 * A leaver's forgery on a copy of the store: entry `seq` changed as `change` says, and it and every entry after
 * it linked and sealed again with the old team key's audit key, the triggers off, the head moved to the end.
 */
async function forgeFrom(seq: number, change: { action?: string; detail: string }) {
  const { owner, entries } = await entriesFrom(seq);
  const leaver = auditSealer(oldKey);
  let prev = entries[0]!.link.prevHash;
  await owner.query('ALTER TABLE vetted.audit_log DISABLE TRIGGER audit_log_no_change');
  for (const { link: _, ...entry } of [{ ...entries[0]!, ...change }, ...entries.slice(1)]) {
    const link = linkAfter(prev, entry, leaver);
    await owner.query(
      `UPDATE vetted.audit_log SET action = $2, detail = $3, content_hash = $4, prev_hash = $5, chain_hash = $6,
         seal = $7 WHERE seq = $1`,
      [entry.seq, entry.action, entry.detail, link.contentHash, link.prevHash, link.chainHash, link.seal],
    );
    prev = link.chainHash;
  }
  await owner.query('ALTER TABLE vetted.audit_log ENABLE TRIGGER audit_log_no_change');
  await owner.query('UPDATE vetted.audit_head SET chain_hash = $1', [prev]);
  return owner;
}

describe('a new audit key at each rotation', () => {
  it('begins after team.keyRotated, is named in the chain, and verify-audit checks each stretch with its key', async () => {
    const { rows } = await entriesFrom(1);
    const actions = rows.map((row) => row.action);
    expect(actions).toEqual([
      'note.add',
      'note.add',
      'note.add',
      'team.keyRotated',
      'audit.key',
      'note.add',
      'note.add',
      'note.add',
    ]);
    const begun = rows[4];
    const id = /^audit key ([a-z0-9-]+) seals from this entry on$/.exec(begun.detail)?.[1];
    expect(id).toMatch(/^a/);
    // Sealed with the new team key's audit key from the audit.key entry on; before it, with the first.
    expect(rows.map((row) => row.audit_key)).toEqual(['audit', 'audit', 'audit', 'audit', id, id, id, id]);
    const newAudit = auditSealer(keyNow());
    expect(rows.slice(4).every((row) => newAudit.holds(row.chain_hash, row.seal))).toBe(true);
    expect(rows.slice(0, 4).some((row) => newAudit.holds(row.chain_hash, row.seal))).toBe(false);

    const run = await verify();
    expect(run, run.err).toMatchObject({ code: 0 });
    expect(run.out).toContain(
      `Audit keys (each seal checked with its own): audit from entry 1, ${id} from entry 5.`,
    );
  });

  it('refuses an entry from a desk still on the old key, in the key-changed words', async () => {
    const refused = await record(stale, 'late').catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'TeamKeyChanged',
      message: expect.stringMatching(
        /^The team's key was changed on \d{4}-\d{2}-\d{2} \(your administrator rotated it\).*Ask your administrator for a new join code/,
      ),
    });
    expect((await verify()).code).toBe(0);
  });

  it('finds entries rewritten after the rotation and re-sealed with the old audit key', async () => {
    await forgeFrom(6, { detail: 'nothing happened' });
    const run = await verify();
    expect(run).toMatchObject({ code: 1, out: '' });
    expect(run.err).toMatch(
      /^The audit log does not hold: entry 6 does not carry audit key a[a-z0-9-]+'s seal/,
    );
  });

  it('finds the new key left out: the rotation entry rewritten and the chain re-sealed with the old key', async () => {
    const owner = await forgeFrom(5, { action: 'note.add', detail: 'x' });
    // The key's row removed too: the key file's own audit key is then missing from the store's keys.
    await owner.query(`DELETE FROM vetted.team_keys WHERE purpose = 'audit' AND audit_from IS NOT NULL`);
    const run = await verify();
    expect(run).toMatchObject({ code: 1, out: '' });
    expect(run.err).toMatch(/the newest audit key is not the key file's/);
  });

  it('an export carries the wrapped keys: verified offline stretch by stretch, and a forged seal is found', async () => {
    const file = tempPath('audit.jsonl');
    fs.writeFileSync(file, (await exportAudit(fresh.journal, { filter: {}, format: 'jsonl' })).content);
    const run = await runTeam('verify-audit', '--file', file, '--key-file', store.keyFile);
    expect(run, run.err).toMatchObject({ code: 0 });
    expect(run.out).toMatch(/8 entries from its start to its head; every seal checked/);
    expect(run.out).toMatch(
      /Audit keys \(each seal checked with its own\): audit from entry 1, a[a-z0-9-]+ from entry 5\./,
    );

    // Entry 7 rewritten in the file and re-sealed with the old audit key, with every entry after it.
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const leaver = auditSealer(oldKey);
    let prev = '';
    const forged = lines.map((line) => {
      const record = JSON.parse(line);
      if (record.head || record.seq < 7) return line;
      if (record.seq === 7) record.detail = 'nothing happened';
      const link = linkAfter(prev || record.chain.prev, record, leaver);
      prev = link.chainHash;
      record.chain = {
        v: 1,
        prev: link.prevHash,
        content: link.contentHash,
        hash: link.chainHash,
        seal: link.seal,
      };
      return JSON.stringify(record);
    });
    const head = JSON.parse(forged.at(-1)!);
    head.head.hash = prev;
    head.head.seal = leaver.seal(prev);
    forged[forged.length - 1] = JSON.stringify(head);
    fs.writeFileSync(file, `${forged.join('\n')}\n`);
    const checked = await runTeam('verify-audit', '--file', file, '--key-file', store.keyFile);
    expect(checked).toMatchObject({ code: 1, out: '' });
    expect(checked.err).toMatch(/entry 7 does not carry audit key a[a-z0-9-]+'s seal/);
  });
});
