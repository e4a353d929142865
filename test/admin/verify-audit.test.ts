// `npm run team -- verify-audit` on a team store two reviewers' desks wrote to, tampered with as the
// database's superuser would: behind the triggers, a change, a removal, two entries' contents swapped, the
// whole chain after a change recomputed without the key, the end cut off. Each is found, and the first
// entry concerned named. Exports checked offline: test/main/features/case/audit-export.test.ts and the last tests here.
import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditSealer, linkAfter } from '#main/data/journal/audit-chain.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { exportAudit } from '#main/features/case/audit-log.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { LINKED_COLUMNS, LinkedRowSchema } from '#main/team/journal/audit.ts';
import { parseRows } from '#main/team/journal/rows.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import {
  addTestReviewer,
  initTeamStore,
  runTeam,
  type TestReviewer,
  type TestStore,
  tempPath,
} from '../support/team/admin-support.ts';
import { connectTo, openDesk } from '../support/team/team-journal.ts';

const reviewerUrl = ({ joinCode: { connection }, password }: TestReviewer) =>
  `postgres://${connection.user}:${encodeURIComponent(password)}@${connection.host}:${connection.port}/${connection.database}`;

let store: TestStore;
let teamKey: Buffer;
let desks: Journal[];

/** Twelve entries, written by alice's and bob's desks in turn. */
beforeEach(async () => {
  store = await initTeamStore();
  teamKey = decodeTeamKey(fs.readFileSync(store.keyFile, 'utf8'));
  const reviewers = [await addTestReviewer(store, 'alice'), await addTestReviewer(store, 'bob')];
  desks = [];
  for (const reviewer of reviewers)
    desks.push((await openDesk({ url: reviewerUrl(reviewer), teamKey })).journal);
  for (let i = 1; i <= 12; i++) {
    await desks[i % 2]!.audit.record({
      action: i % 3 ? 'note.add' : 'personal.reveal',
      customerId: `c-${i % 4}`,
      outcome: 'ok',
      detail: `entry ${i}`,
    });
  }
});

const verify = (...extra: string[]) =>
  runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile, ...extra);

/** As the database's superuser: the append-only trigger off, `sql` run, the trigger back on. */
async function asOwner(sql: string, params: unknown[] = []) {
  const owner = await connectTo(store.url);
  await owner.query('ALTER TABLE vetted.audit_log DISABLE TRIGGER audit_log_no_change');
  await owner.query(sql, params);
  await owner.query('ALTER TABLE vetted.audit_log ENABLE TRIGGER audit_log_no_change');
  return owner;
}

const headLine = (out: string) => /^Head: (\d+:[0-9a-f]{64})$/m.exec(out)?.[1];

describe('verify-audit on the team store', () => {
  it('says the log holds, with its length and head, and needs the team’s own key file', async () => {
    const run = await verify();
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(/^OK: the audit log holds\. 12 entries, every link and every seal checked\.$/m);
    expect(headLine(run.out)).toMatch(/^12:/);

    const without = await runTeam('verify-audit', '--database', store.url);
    expect(without).toMatchObject({ code: 1, out: '' });
    expect(without.err).toMatch(/needs --key-file FILE: the seals are what the database owner cannot forge/);
    const other = tempPath('other.key');
    fs.writeFileSync(other, `${createFieldKey().toString('base64url')}\n`);
    const wrong = await runTeam('verify-audit', '--database', store.url, '--key-file', other);
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/is not this team's key/);
  });

  it('names an entry changed behind the append-only trigger', async () => {
    await asOwner(`UPDATE vetted.audit_log SET detail = 'nothing to see' WHERE seq = 5`);
    const run = await verify();
    expect(run).toMatchObject({ code: 1, out: '' });
    expect(run.err).toBe(
      'The audit log does not hold: entry 5 was changed: its content is not what was hashed when it was written.\n',
    );
  });

  it('names where an entry was deleted', async () => {
    await asOwner('DELETE FROM vetted.audit_log WHERE seq = 7');
    expect((await verify()).err).toMatch(
      /^The audit log does not hold: entry 8 does not follow entry 6 \(entry 7 missing\): an entry between them was removed/,
    );
  });

  it('names the first of two entries whose contents were swapped', async () => {
    await asOwner(`UPDATE vetted.audit_log a SET action = b.action, customer_id = b.customer_id, detail = b.detail
      FROM vetted.audit_log b WHERE (a.seq, b.seq) IN ((3, 8), (8, 3))`);
    expect((await verify()).err).toMatch(/^The audit log does not hold: entry 3 was changed/);
  });

  it('finds a change whose whole chain after it was recomputed by someone without the key', async () => {
    const owner = await connectTo(store.url);
    const { rows } = await owner.query(
      `SELECT ${LINKED_COLUMNS} FROM vetted.audit_log WHERE seq >= 4 ORDER BY seq`,
    );
    const [first, ...after] = parseRows(LinkedRowSchema, 'audit_log', rows);
    const guess = auditSealer(createFieldKey());
    let prev = first!.link.prevHash;
    for (const { link: _, ...entry } of [{ ...first!, outcome: 'refused' }, ...after]) {
      const link = linkAfter(prev, entry, guess);
      await asOwner(
        `UPDATE vetted.audit_log SET outcome = $2, content_hash = $3, prev_hash = $4, chain_hash = $5, seal = $6
         WHERE seq = $1`,
        [entry.seq, entry.outcome, link.contentHash, link.prevHash, link.chainHash, link.seal],
      );
      prev = link.chainHash;
    }
    await owner.query('UPDATE vetted.audit_head SET chain_hash = $1', [prev]);
    expect((await verify()).err).toBe(
      "The audit log does not hold: entry 4 does not carry the audit key's seal: it was changed or removed, and the chain recomputed by someone without the key.\n",
    );
  });

  it('finds the end cut off: by the head, and by a head noted before when the head was moved back too', async () => {
    const noted = headLine((await verify()).out)!;
    const owner = await asOwner('DELETE FROM vetted.audit_log WHERE seq > 10');
    expect((await verify()).err).toMatch(/entry 10 but its head is entry 12: entries 11–12 were removed\.$/m);

    const { rows } = await owner.query('SELECT chain_hash FROM vetted.audit_log WHERE seq = 10');
    await owner.query('UPDATE vetted.audit_head SET seq = 10, chain_hash = $1', [rows[0].chain_hash]);
    expect(await verify()).toMatchObject({ code: 0 });
    expect((await verify('--head', noted)).err).toMatch(
      /entry 12, noted before, is no longer in the chain: entries were removed from its end\.$/m,
    );
    const bad = await verify('--head', '12');
    expect(bad.err).toMatch(/--head takes SEQ:HASH/);
  });
});

describe('verify-audit --file on a team export', () => {
  async function exported(filter = {}) {
    const file = tempPath('audit.jsonl');
    fs.writeFileSync(file, (await exportAudit(desks[0]!, { filter, format: 'jsonl' })).content);
    return file;
  }

  it('checks the whole chain offline, its seals with the key file, and finds a line changed', async () => {
    const head = headLine((await verify()).out);
    const file = await exported();
    const plain = await runTeam('verify-audit', '--file', file);
    expect(plain).toMatchObject({ code: 0, err: '' });
    expect(plain.out).toMatch(/whole audit chain, 12 entries from its start to its head; seals NOT checked/);
    const sealed = await runTeam('verify-audit', '--file', file, '--key-file', store.keyFile);
    expect(sealed.out).toMatch(/12 entries from its start to its head; every seal checked with the team key/);
    // The chain's head when the export began (the export's own entry comes after it).
    expect(headLine(sealed.out)).toBe(head);

    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('"detail":"entry 9"', '"detail":"entry nine"'),
    );
    const changed = await runTeam('verify-audit', '--file', file, '--key-file', store.keyFile);
    expect(changed).toMatchObject({ code: 1, out: '' });
    expect(changed.err).toMatch(/^The audit log does not hold: entry 9 was changed/);
  });

  it('checks a filtered export entry by entry, and says it cannot show nothing was left out', async () => {
    const file = await exported({ action: 'personal.reveal' });
    const run = await runTeam('verify-audit', '--file', file, '--key-file', store.keyFile);
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(run.out).toMatch(
      /the export's 4 entries \(filtered: action personal\.reveal\) are each as written/,
    );
    expect(run.out).toMatch(/cannot show that no entry was left out of it: export the whole log for that/);

    const lines = fs.readFileSync(file, 'utf8').split('\n');
    fs.writeFileSync(file, [...lines.slice(0, 1), ...lines.slice(2)].join('\n'));
    expect((await runTeam('verify-audit', '--file', file)).err).toMatch(
      /the file lists 3 entries but its head record says 4: entries were removed from the file/,
    );
  });

  it('refuses a key file of another team, and --database beside --file', async () => {
    const file = await exported();
    const other = tempPath('other.key');
    fs.writeFileSync(other, `${createFieldKey().toString('base64url')}\n`);
    expect((await runTeam('verify-audit', '--file', file, '--key-file', other)).err).toMatch(
      /not the one this export's log was sealed with/,
    );
    expect((await runTeam('verify-audit', '--file', file, '--database', store.url)).err).toMatch(
      /checks the file alone/,
    );
  });
});
