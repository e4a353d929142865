// Seeding a team store for the Team screen's figures: a customer's status history written as the hub writes
// it (the administrator's hand here), and audit entries appended as each reviewer's desk appends them (their
// own login, sealed into the chain) at a moment the test names.
import type { AuditAction } from '#contract/audit-actions.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import type { UncheckedAction } from '#main/data/journal/repositories/audit.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import type { ClaimsReviewer, ClaimsTeam } from '#test/support/team/claims-support.ts';

/** A customer whose history is `steps` (status, at), oldest first; its row shows the last one. */
export async function customerWithHistory(
  team: ClaimsTeam,
  id: string,
  steps: readonly (readonly [status: string, at: string])[],
): Promise<void> {
  const [status, since] = steps.at(-1)!;
  await team.admin.query(
    `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at,
       profile)
     VALUES ($1, nextval('vetted.change_seq'), $2, $2, $3, $4, $3, $3, 'sealed')`,
    [id, status, since, steps[0]![1]],
  );
  for (const [step, at] of steps) {
    await team.admin.query(
      `INSERT INTO vetted.status_history (seq, customer_id, status, at, source)
       VALUES (nextval('vetted.change_seq'), $1, $2, $3, 'poll')`,
      [id, step, at],
    );
  }
}

/** An audit entry by this reviewer on a customer, at `at`, appended to the chain as their desk would. */
export async function acted(
  reviewer: ClaimsReviewer,
  customerId: string,
  action: AuditAction | UncheckedAction,
  at: string,
) {
  await inTransaction(reviewer.pool, (client) =>
    appendAuditEntry(client, auditSealer(reviewer.teamKey), {
      at,
      action,
      customerId,
      outcome: 'ok',
      detail: null,
    }),
  );
}

/** `at` plus some seconds, as ISO. */
export const plus = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();
