// A draft the team submitted, found by the customer it created. Once submitted, a draft leaves the desk that
// wrote it: the team outbox holds its form, sealed with the team key. The one-time retry pre-fills from that
// form as a solo desk does from its own draft, on any desk of the team: the form is team data, as the
// customer's personal data (which every reviewer may reveal) is. It holds the SSN's last four digits only,
// as every draft does, and the retry form leaves even those for the reviewer to type in full.
import type { Draft, DraftsRepository } from '#main/data/journal/repositories/drafts.ts';
import { openForm, parseRows, ROW_COLUMNS, type TeamOutboxRow } from '../outbox/rows.ts';
import type { TeamRepositoryContext } from './team-db.ts';

/** `byCustomer` for the team journal: a draft still on this desk first, else the team outbox's. */
export function draftByCustomer(
  { db, cipher }: Pick<TeamRepositoryContext, 'db' | 'cipher'>,
  local: Pick<DraftsRepository, 'byCustomer'>,
): DraftsRepository['byCustomer'] {
  return async (customerId) => {
    const own = await local.byCustomer(customerId);
    if (own) return own;
    const { rows } = await db.read.query(
      `SELECT ${ROW_COLUMNS} FROM vetted.team_outbox WHERE customer_id = $1 AND state = 'created'
        ORDER BY finished_at DESC NULLS LAST LIMIT 1`,
      [customerId],
    );
    const row = parseRows(rows)[0];
    return row && submittedDraft(row, cipher);
  };
}

function submittedDraft(row: TeamOutboxRow, cipher: TeamRepositoryContext['cipher']): Draft {
  const form = openForm(cipher, row);
  return {
    id: row.draft_id,
    created: row.submitted_at,
    updated: row.finished_at ?? row.submitted_at,
    state: row.state,
    name: [form.firstName, form.lastName].filter(Boolean).join(' '),
    email: form.email ?? '',
    customerId: row.customer_id,
    fieldErrors: row.field_errors,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    form,
  };
}
