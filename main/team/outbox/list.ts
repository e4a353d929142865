// The team outbox as the UI shows it: every row with who submitted it and how it stands, the person's name
// and e-mail decrypted on the desk (PostgreSQL holds them sealed).
import type pg from 'pg';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import { openForm, parseRows, ROW_COLUMNS, type TeamOutboxState } from './rows.ts';

export interface TeamOutboxItem {
  draftId: string;
  state: TeamOutboxState;
  /** The database login that submitted it. */
  submittedBy: string;
  submittedAt: string;
  /** Empty when this desk's team key cannot open the form. */
  name: string;
  email: string;
  attempts: number;
  lastError: string | null;
  fieldErrors: Record<string, string>;
  customerId: string | null;
  /** The drainer sending it now, if any. */
  leaseHolder: string | null;
  nextAttemptAt: string | null;
}

/** Oldest first. */
export async function listTeamOutbox(
  pool: Pick<pg.Pool, 'query'>,
  cipher: PersonalCipher,
): Promise<TeamOutboxItem[]> {
  const { rows } = await pool.query(
    `SELECT ${ROW_COLUMNS} FROM vetted.team_outbox ORDER BY submitted_at, draft_id`,
  );
  return parseRows(rows).map((row) => {
    let name = '';
    let email = '';
    try {
      const form = openForm(cipher, row);
      name = [form.firstName, form.lastName].filter(Boolean).join(' ');
      email = form.email ?? '';
    } catch {
      // Sealed with another team key: the row is still listed, without the person.
    }
    return {
      draftId: row.draft_id,
      state: row.state,
      submittedBy: row.submitted_by,
      submittedAt: row.submitted_at,
      name,
      email,
      attempts: row.attempts,
      lastError: row.last_error,
      fieldErrors: row.field_errors,
      customerId: row.customer_id,
      leaseHolder: row.lease_holder,
      nextAttemptAt: row.next_attempt_at,
    };
  });
}
