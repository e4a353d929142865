// The team outbox's rows as they come out of PostgreSQL (validated: the database is a boundary), and the
// sealed form each carries. The form is sealed on the desk with the team data key, bound to its draft.
import { z } from 'zod';
import { type CustomerForm, CustomerFormSchema } from '#contract/drafts.ts';
import type { PersonalCipher, PersonalPlace } from '#main/data/journal/personal.ts';

/** `NOTIFY` on this channel when rows are submitted: drainers wake at once instead of at their next poll. */
export const OUTBOX_CHANNEL = 'vetted_outbox';

export const TeamOutboxStateSchema = z.enum(['queued', 'created', 'rejected', 'attention']);
export type TeamOutboxState = z.infer<typeof TeamOutboxStateSchema>;

const when = z.date().transform((date) => date.toISOString());

export const TeamOutboxRowSchema = z.object({
  idempotency_key: z.uuid(),
  draft_id: z.string(),
  submitted_by: z.string(),
  submitted_at: when,
  key_created_at: when,
  form: z.string(),
  state: TeamOutboxStateSchema,
  lease_holder: z.string().nullable(),
  lease_until: when.nullable(),
  attempts: z.number().int(),
  maybe_created: z.boolean(),
  customer_id: z.string().nullable(),
  last_error: z.string().nullable(),
  field_errors: z.record(z.string(), z.string()),
  duplicate_of: z.string().nullable(),
  next_attempt_at: when.nullable(),
  finished_at: when.nullable(),
  /** The drainer that recorded it created (migration 4). */
  recorded_by: z.string().nullable(),
});
export type TeamOutboxRow = z.infer<typeof TeamOutboxRowSchema>;

export const ROW_COLUMNS = Object.keys(TeamOutboxRowSchema.shape).join(', ');

export function parseRows(rows: unknown[]): TeamOutboxRow[] {
  return rows.map((row) => TeamOutboxRowSchema.parse(row));
}

export const formPlace = (draftId: string): PersonalPlace => ({
  table: 'drafts',
  id: draftId,
  column: 'form',
});

export function sealForm(cipher: PersonalCipher, draftId: string, form: CustomerForm): string {
  return cipher.seal(formPlace(draftId), JSON.stringify(form));
}

/** Throws `JournalError` if the row was sealed with another team key or altered, ZodError if not a form. */
export function openForm(
  cipher: PersonalCipher,
  row: Pick<TeamOutboxRow, 'draft_id' | 'form'>,
): CustomerForm {
  return CustomerFormSchema.parse(JSON.parse(cipher.open(formPlace(row.draft_id), row.form)));
}
