// The audit log as a sealed hash chain, through the journal interface: every implementation links each entry
// where it is written and seals it with the key derived from its data key (the team key on a team journal).
// Tampering with the local SQLite file is here too; the team store's: test/admin/verify-audit.test.ts.
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { auditSealer, GENESIS_HASH, linkAfter } from '#main/data/journal/audit-chain.ts';
import { AuditChainError, chainChecker } from '#main/data/journal/audit-verify.ts';
import type { Journal, LinkedAuditEntry } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { journalFile, MINUTE, manualClock, openTestJournal, TEAM_JOURNAL } from './helpers.ts';

async function recordSome(journal: Journal, n: number, advance: () => void = () => undefined) {
  for (let i = 1; i <= n; i++) {
    await journal.audit.record({
      action: i % 2 ? 'note.add' : 'customer.retry',
      customerId: `c-${i % 3}`,
      outcome: 'ok',
      detail: i % 4 ? `entry ${i}` : null,
    });
    advance();
  }
}

async function allLinked(journal: Journal): Promise<LinkedAuditEntry[]> {
  return journal.audit.linked({ limit: 10_000 });
}

/** The chain checked as `verify-audit` checks it; the first problem's words if it does not hold. */
function verdict(entries: LinkedAuditEntry[], head: { seq: number; chainHash: string }, dataKey: Buffer) {
  const checker = chainChecker({ sealer: auditSealer(dataKey), whole: true });
  try {
    for (const entry of entries) checker.add(entry);
    return checker.finish(head);
  } catch (error) {
    if (error instanceof AuditChainError) return error.message;
    throw error;
  }
}

describe('the audit chain', () => {
  it('links every entry to the one before and seals it with the key derived from the data key', async () => {
    const dataKey = createFieldKey();
    const time = manualClock();
    const journal = await openTestJournal({ dataKey, clock: time.clock });
    expect(await journal.audit.head()).toEqual({
      seq: 0,
      chainHash: GENESIS_HASH,
      seal: null,
      keyCheck: auditSealer(dataKey).keyCheck,
    });
    await recordSome(journal, 7, () => time.advance(MINUTE));

    const entries = await allLinked(journal);
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(entries[0]!.link.prevHash).toBe(GENESIS_HASH);
    expect(entries[1]!.link.prevHash).toBe(entries[0]!.link.chainHash);
    const head = await journal.audit.head();
    expect(head).toMatchObject({
      seq: 7,
      chainHash: entries[6]!.link.chainHash,
      seal: entries[6]!.link.seal,
    });
    expect(verdict(entries, head, dataKey)).toMatchObject({ entries: 7, sealed: true });
    // Another key's seals do not hold.
    expect(verdict(entries, head, createFieldKey())).toMatch(/^entry 1 does not carry the audit key's seal/);
  });

  it('reads the chain oldest first, page by page, narrowed by a filter and up to a head', async () => {
    const journal = await openTestJournal();
    await recordSome(journal, 9);
    const page = async (query: Parameters<Journal['audit']['linked']>[0]) =>
      (await journal.audit.linked(query)).map((entry) => entry.seq);
    expect(await page({ limit: 4 })).toEqual([1, 2, 3, 4]);
    expect(await page({ afterSeq: 4, limit: 4 })).toEqual([5, 6, 7, 8]);
    expect(await page({ afterSeq: 2, upToSeq: 6, limit: 100 })).toEqual([3, 4, 5, 6]);
    expect(await page({ action: 'customer.retry', limit: 100 })).toEqual([2, 4, 6, 8]);
    expect(await page({ customerId: 'c-1', afterSeq: 1, limit: 100 })).toEqual([4, 7]);
  });

  it('keeps one chain through units of work, and leaves no link behind for a unit rolled back', async () => {
    const dataKey = createFieldKey();
    const journal = await openTestJournal({ dataKey });
    await journal.audit.record({ action: 'note.add', outcome: 'ok' });
    await expect(
      journal.transaction(async (tx) => {
        await tx.audit.record({ action: 'draft.discard', outcome: 'ok' });
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    await journal.transaction(async (tx) => {
      await tx.audit.record({ action: 'customer.retry', outcome: 'ok' });
      await tx.audit.record({ action: 'settings.change', outcome: 'ok' });
    });
    const entries = await allLinked(journal);
    expect(entries.map((entry) => [entry.seq, entry.action])).toEqual([
      [1, 'note.add'],
      [2, 'customer.retry'],
      [3, 'settings.change'],
    ]);
    expect(verdict(entries, await journal.audit.head(), dataKey)).toMatchObject({ entries: 3 });
  });

  // The local SQLite file, as someone with the file (and no vault key) could change it.
  describe.skipIf(TEAM_JOURNAL)('in the desk’s SQLite file', () => {
    async function tampered(change: string | ((raw: DatabaseSync) => void)) {
      const file = journalFile();
      const dataKey = createFieldKey();
      const journal = await openTestJournal({ file, dataKey });
      await recordSome(journal, 6);
      await journal.close();
      const raw = new DatabaseSync(file);
      try {
        if (typeof change === 'string') raw.exec(change);
        else change(raw);
      } finally {
        raw.close();
      }
      const again = await openTestJournal({ file, dataKey });
      return verdict(await allLinked(again), await again.audit.head(), dataKey);
    }

    it('refuses an entry that does not follow the head, so the chain cannot fork', async () => {
      const file = journalFile();
      const journal = await openTestJournal({ file });
      await recordSome(journal, 2);
      const raw = new DatabaseSync(file);
      try {
        const row = raw.prepare('SELECT * FROM audit_log WHERE seq = 2').get()!;
        const insert = (seq: number, prev: unknown) =>
          raw
            .prepare(
              `INSERT INTO audit_log (seq, at, actor, action, outcome, hash_version, prev_hash, content_hash,
                 chain_hash, seal) VALUES (?, 't', 'x', 'a', 'ok', 1, ?, ?, ?, ?)`,
            )
            .run(
              seq,
              prev as string,
              row.content_hash as string,
              row.chain_hash as string,
              row.seal as string,
            );
        expect(() => insert(3, row.prev_hash)).toThrow(/must follow the chain's head/);
        expect(() => insert(4, row.chain_hash)).toThrow(/must follow the chain's head/);
      } finally {
        raw.close();
      }
    });

    it('finds an entry changed behind the triggers', async () => {
      expect(
        await tampered(
          `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET detail = 'nothing' WHERE seq = 3`,
        ),
      ).toBe('entry 3 was changed: its content is not what was hashed when it was written');
    });

    it('finds an entry removed', async () => {
      expect(await tampered('DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE seq = 4')).toBe(
        'entry 5 does not follow entry 3 (entry 4 missing): an entry between them was removed, or the entries were reordered',
      );
    });

    it('finds two entries’ contents swapped', async () => {
      expect(
        await tampered(`DROP TRIGGER audit_log_no_update;
          UPDATE audit_log SET detail = CASE seq WHEN 2 THEN 'entry 5' ELSE 'entry 2' END WHERE seq IN (2, 5)`),
      ).toMatch(/^entry 2 was changed/);
    });

    it('finds a change with every hash after it recomputed, as someone without the vault’s key would', async () => {
      const forge = (raw: DatabaseSync) => {
        raw.exec('DROP TRIGGER audit_log_no_update');
        const rows = raw.prepare('SELECT * FROM audit_log WHERE seq >= 3 ORDER BY seq').all();
        let prev = String(raw.prepare('SELECT chain_hash FROM audit_log WHERE seq = 2').get()!.chain_hash);
        const guess = auditSealer(createFieldKey());
        for (const row of rows) {
          const entry = {
            seq: Number(row.seq),
            at: String(row.at),
            actor: String(row.actor),
            action: String(row.action),
            customerId: row.customer_id === null ? null : String(row.customer_id),
            outcome: row.seq === 3 ? 'refused' : String(row.outcome),
            detail: row.detail === null ? null : String(row.detail),
          };
          const link = linkAfter(prev, entry, guess);
          raw
            .prepare(
              `UPDATE audit_log SET outcome = ?, prev_hash = ?, content_hash = ?, chain_hash = ?, seal = ?
               WHERE seq = ?`,
            )
            .run(entry.outcome, link.prevHash, link.contentHash, link.chainHash, link.seal, entry.seq);
          prev = link.chainHash;
        }
        raw.prepare('UPDATE audit_head SET chain_hash = ?').run(prev);
      };
      expect(await tampered(forge)).toBe(
        "entry 3 does not carry the audit key's seal: it was changed or removed, and the chain recomputed by someone without the key",
      );
    });

    it('finds the last entries removed with the head moved back to match', async () => {
      expect(
        await tampered(`DROP TRIGGER audit_log_no_delete; DELETE FROM audit_log WHERE seq > 4;
          UPDATE audit_head SET seq = 6`),
      ).toBe('the log ends at entry 4 but its head is entry 6: entries 5–6 were removed');
    });
  });
});
