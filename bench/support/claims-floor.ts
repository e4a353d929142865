/**
 * The floor of a take (#38): the least a claim can cost in the team store — one transaction inserting the
 * claim (its change number drawn under CHANGE_LOCK, as every writer of a replicated row must) and its audit
 * entry at the chain's head, committed — taken by as many clients at one instant as there
 * are desks taking the next case, so the floor includes what four takes at once cannot avoid: the chain's head
 * is one row, each appends after the one before, and each waits for the one before to commit (fsync on).
 * Each client is the store's owner (a reviewer may change claims only through the store's functions, which
 * find the case too), on a connection opened before the rounds; its claims are on settled customers no desk
 * asks for, so the desks' accounting is untouched. The desks'
 * `claims.next` does this and more: finds the case (under CHANGE_LOCK), and the desk reads its claim back.
 */
import pg from 'pg';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { appendAfterHead, HeadSchema } from '#main/team/journal/audit.ts';
import { parseRow } from '#main/team/journal/rows.ts';
import { CHANGE_LOCK } from '#main/team/store/sql.ts';
import { sleepUntil } from './team-next-case.ts';

/** One take at the floor: the claim written and the chain's head read in one statement, the entry, the commit. */
async function floorTake(client: pg.Client, sealer: AuditSealer, customerId: string): Promise<number> {
  const started = performance.now();
  await client.query('BEGIN');
  try {
    // Its change number drawn under CHANGE_LOCK like every writer's: replicas read "every change after the last
    // one I hold", which holds only while changes commit in the order of their numbers (a first version of
    // this floor drew without it, and at fifty desks a desk's replica passed over a take still committing).
    const { rows } = await client.query(
      `WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($2)),
       claim AS MATERIALIZED (
         INSERT INTO vetted.claims (customer_id, seq, holder, since, touched_at, expires_at, how, changed_by,
           changed_at)
         SELECT $1, nextval('vetted.change_seq'), session_user, now(), now(), now() + interval '30 minutes',
           'take', session_user, now() FROM locked
         RETURNING customer_id)
       SELECT h.seq, h.chain_hash, h.actor, now() AS now FROM claim, vetted.audit_chain_head() h`,
      [customerId, CHANGE_LOCK],
    );
    const head = parseRow(HeadSchema, 'audit_head', rows);
    await appendAfterHead(client, sealer, head, [
      { action: 'claim.take', customerId, outcome: 'ok', detail: 'take' },
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return performance.now() - started;
}

export interface FloorRounds {
  url: string;
  sealer: AuditSealer;
  /** Takes at once (the desks taking at once). */
  clients: number;
  /** Epoch ms of the first round; round r starts at `at + r × gapMs`. */
  at: number;
  rounds: number;
  gapMs: number;
}

/** Settled customers nobody holds, for the floor's claims: `n` of them (a round's more than the rounds'). */
export async function floorCustomers(db: pg.ClientBase, n: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id FROM vetted.customers c WHERE c.gone_at IS NULL
       AND c.section NOT IN ('retry', 'document', 'review')
       AND NOT EXISTS (SELECT FROM vetted.claims k WHERE k.customer_id = c.id)
     ORDER BY c.id LIMIT $1`,
    [n],
  );
  if (rows.length < n) throw new Error(`only ${rows.length} settled customers for the floor's ${n} claims`);
  return rows.map((row) => row.id);
}

/** The floor's rounds: at each round's instant, `clients` takes at once; each take's milliseconds. */
export async function floorRounds(options: FloorRounds, customers: readonly string[]): Promise<number[]> {
  const clients = await Promise.all(
    Array.from({ length: options.clients }, async () => {
      const client = new pg.Client({ connectionString: options.url, application_name: 'bench-floor' });
      // A connection lost between rounds fails the next take (and the bench) in words, not as an unhandled event.
      client.on('error', () => undefined);
      await client.connect();
      return client;
    }),
  );
  const ms: number[] = [];
  try {
    let next = 0;
    // A round not counted first: the desks' connections are warm from their day, so the floor's are too
    // (a new session's first statements load catalogs and plans: 70–100 ms here against 5–20 ms after).
    for (let round = -1; round < options.rounds; round++) {
      await sleepUntil(options.at + round * options.gapMs);
      const ids = clients.map(() => customers[next++]!);
      const takes = await Promise.allSettled(
        clients.map((client, i) => floorTake(client, options.sealer, ids[i]!)),
      );
      for (const take of takes) {
        if (take.status === 'rejected') throw take.reason;
        if (round >= 0) ms.push(take.value);
      }
    }
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  return ms;
}
