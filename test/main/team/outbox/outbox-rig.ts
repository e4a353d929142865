// What the team outbox tests share: a migrated team store in the run's cluster, a desk's local journal, the
// team key's cipher, and drafts with valid forms.
import path from 'node:path';
import pg from 'pg';
import type { CustomerForm } from '#contract/drafts.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { type Journal, openJournal } from '#main/data/journal/index.ts';
import { type PersonalCipher, personalCipher } from '#main/data/journal/personal.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger, type Logger } from '#main/ground/log/logger.ts';
import type { OutcomeAudit } from '#main/team/outbox/lease.ts';
import { holdLiveness } from '#main/team/outbox/liveness.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { removeDir, tempDir, validForm } from '#test/support/desk/drafts.ts';
import { migratedDatabase } from '#test/support/postgres/team-db.ts';

export interface TeamOutboxRig {
  url: string;
  pool: pg.Pool;
  teamKey: Buffer;
  cipher: PersonalCipher;
  /** How a drainer writes an outcome into the audit chain (recordOutcome's last argument). */
  audit: OutcomeAudit;
  /** The desk's local SQLite journal. */
  local: Journal;
  log: Logger;
  /** Log lines, to prove what never reaches them. */
  lines: string[];
  /** Inserts drafts (valid forms unless given) into the local journal; returns their ids. */
  drafts(forms: CustomerForm[] | number): Promise<string[]>;
  close(): Promise<void>;
}

export async function teamOutboxRig(): Promise<TeamOutboxRig> {
  const url = await migratedDatabase('outbox');
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  const dir = tempDir('vetted-team-outbox-');
  const local = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const teamKey = createTeamKey();
  const lines: string[] = [];
  return {
    url,
    pool,
    teamKey,
    cipher: personalCipher(teamKey),
    audit: { sealer: auditSealer(teamKey), now: () => new Date() },
    local,
    lines,
    log: createLogger((line) => lines.push(line)),
    async drafts(forms) {
      const list = typeof forms === 'number' ? Array.from({ length: forms }, () => validForm()) : forms;
      return local.transaction(async (tx) => {
        const ids: string[] = [];
        for (const form of list) ids.push((await tx.drafts.insert({ form })).id);
        return ids;
      });
    },
    async close() {
      await local.close();
      await pool.end();
      removeDir(dir);
    },
  };
}

export interface OutboxRowState {
  draft_id: string;
  idempotency_key: string;
  state: string;
  attempts: number;
  customer_id: string | null;
  lease_holder: string | null;
}

export async function outboxRows(db: Pick<pg.Pool, 'query'>): Promise<OutboxRowState[]> {
  const { rows } = await db.query<OutboxRowState>(
    `SELECT draft_id, idempotency_key, state, attempts, customer_id, lease_holder
       FROM vetted.team_outbox ORDER BY submitted_at, draft_id`,
  );
  return rows;
}

/**
 * A drainer named `holder` alive as the store sees it: a session of its own holding its liveness lock, as a
 * running drainer's listening connection does. `die()` ends that session.
 */
export async function aliveAs(url: string, holder: string): Promise<{ die(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  if (!(await holdLiveness(client, holder)).held) throw new Error(`${holder}'s liveness lock is taken`);
  return { die: () => client.end() };
}
