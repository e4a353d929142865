// A team store function that changes something answers the audit entries its change needs (`audit`); the
// desk seals and appends them in the function's own transaction (the store refuses to commit the change
// without them: migration 7's require_audit_entry). Every such transaction holds the team's locks until its
// commit: CHANGE_LOCK, drawn inside the function, then the chain's head. So the round trips between the two
// are the time every other desk waits: here they are one statement, the function and the head read together
// (the head locked after the function, the order every writer takes them, and only when entries are due),
// and one INSERT for all the entries, where a loop of head read and insert took two round trips an entry.
import { z } from 'zod';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { JournalError } from '#main/data/journal/errors.ts';
import type { Queryable } from '../store/sql.ts';
import { type AuditDueSchema, appendAfterHead, type ChainHead, HeadSchema } from './audit.ts';
import { PgTime, parseRow } from './rows.ts';

const HeadColumnsSchema = z.object({
  head: HeadSchema.omit({ now: true }).nullable(),
  head_now: PgTime,
});

/**
 * Runs `sql` (one row with an `audit` column of entries due) and appends those entries after the chain's head,
 * inside `client`'s transaction; answers the row as `schema` reads it.
 */
export async function callAudited<T extends { audit: z.infer<typeof AuditDueSchema> }>(
  client: Queryable,
  sealer: AuditSealer,
  { schema, table, sql, params }: { schema: z.ZodType<T>; table: string; sql: string; params: unknown[] },
): Promise<T> {
  // The function runs first (a MATERIALIZED answer), and the head is locked after it, only when entries are
  // due (CASE evaluates its subquery only then): a claim merely touched waits for nobody's commit.
  const { rows } = await client.query(
    `WITH answer AS MATERIALIZED (${sql})
     SELECT answer.*, now() AS head_now, CASE WHEN jsonb_array_length(answer.audit) > 0
       THEN (SELECT to_jsonb(h) FROM vetted.audit_chain_head() h) END AS head
     FROM answer`,
    params,
  );
  const answer = parseRow(schema, table, rows);
  if (answer.audit.length === 0) return answer;
  const { head, head_now } = parseRow(HeadColumnsSchema, 'audit_head', rows);
  if (head === null) {
    throw new JournalError(
      'The team store did not lock the audit chain’s head for the entries it asked for.',
    );
  }
  const locked: ChainHead = { ...head, now: head_now };
  await appendAfterHead(
    client,
    sealer,
    locked,
    answer.audit.map((due) => ({ outcome: 'ok', ...due })),
  );
  return answer;
}
