// A team store customer row and the journal's `JournalCustomer`, both ways. Everything that names a person
// (name, e-mail, links, the queue line) rides sealed in `profile`; the replica (team-replica) reads rows
// through `customerFromRow` too, so this is the one place the row's format is decided.
import { z } from 'zod';
import { SectionSchema } from '../../../contract/queue.ts';
import { type JournalCustomer, LinksSchema } from '../../journal/customers.ts';
import { JournalError } from '../../journal/errors.ts';
import {
  AddressSchema,
  type PersonalCipher,
  type PersonalData,
  type PersonalPlace,
} from '../../journal/personal.ts';
import { latest } from '../../journal/time.ts';
import { PgText } from './rows.ts';

/** timestamptz arrives as a Date (node-postgres); the journal speaks ISO text. */
const Time = z.date().transform((date) => date.toISOString());

export const CustomerRowSchema = z.object({
  id: z.string(),
  seq: z.coerce.number().int(),
  status: PgText,
  section: SectionSchema.exclude(['drafts']),
  status_since: Time,
  created: Time,
  last_refreshed: Time,
  changed_at: Time,
  gone_at: Time.nullable(),
  pending_documents: z.number().int(),
  profile: z.string(),
  personal: z.string().nullable(),
  reported: z.string().nullable(),
});
export type CustomerRow = z.infer<typeof CustomerRowSchema>;

/** Every column of a customer row, for SELECTs. */
export const CUSTOMER_COLUMNS = `id, seq, status, section, status_since, created, last_refreshed, changed_at, gone_at,
  pending_documents, profile, personal, reported`;

const ProfileSchema = z.object({
  url: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.string(),
  links: z.unknown(),
  note: z.string().nullable(),
});
type Profile = z.infer<typeof ProfileSchema>;

export const PersonalDataSchema = z.object({
  address: AddressSchema,
  dateOfBirth: z.string(),
  ssnLastFour: z.string(),
});

const ReportedSchema = z.record(z.string(), z.unknown());

export const customerPlace = (id: string, column: 'profile' | 'personal' | 'reported'): PersonalPlace => ({
  table: 'customers',
  id,
  column,
});

/** Opens a sealed JSON column; a token that opens to something else is a damaged store, said in words. */
function openJson<S extends z.ZodType>(
  cipher: PersonalCipher,
  place: PersonalPlace,
  token: string,
  schema: S,
) {
  const parsed = schema.safeParse(JSON.parse(cipher.open(place, token)));
  if (!parsed.success) {
    throw new JournalError(
      `The ${place.column} of customers ${place.id} in the team store is not in Vetted's format.`,
    );
  }
  return parsed.data as z.infer<S>;
}

/** Parses a row as the database gave it and opens its profile. */
export function customerFromRow(raw: unknown, cipher: PersonalCipher): JournalCustomer {
  return customerOf(CustomerRowSchema.parse(raw), cipher);
}

/** The customer of a row already parsed. */
export function customerOf(row: CustomerRow, cipher: PersonalCipher): JournalCustomer {
  const profile = openJson(cipher, customerPlace(row.id, 'profile'), row.profile, ProfileSchema);
  return {
    id: row.id,
    url: profile.url,
    name: profile.name,
    email: profile.email,
    type: profile.type,
    status: row.status,
    section: row.section,
    statusSince: row.status_since,
    created: row.created,
    lastRefreshed: row.last_refreshed,
    links: LinksSchema.parse(profile.links),
    goneAt: row.gone_at,
    pendingDocuments: row.pending_documents,
    note: profile.note,
    changedAt: row.changed_at,
  };
}

export function sealProfile(cipher: PersonalCipher, customer: JournalCustomer): string {
  const { url, name, email, type, links, note } = customer;
  const profile: Profile = { url, name, email, type, links, note };
  return cipher.seal(customerPlace(customer.id, 'profile'), JSON.stringify(profile));
}

export function sealPersonal(cipher: PersonalCipher, id: string, personal: PersonalData): string {
  return cipher.seal(customerPlace(id, 'personal'), JSON.stringify(personal));
}

export function openPersonal(cipher: PersonalCipher, id: string, token: string): PersonalData {
  return openJson(cipher, customerPlace(id, 'personal'), token, PersonalDataSchema);
}

/** The service's latest answer is the truth: fields it no longer gives are forgotten (null when none). */
export function sealReported(
  cipher: PersonalCipher,
  id: string,
  reported: Record<string, unknown>,
): string | null {
  return Object.keys(reported).length === 0
    ? null
    : cipher.seal(customerPlace(id, 'reported'), JSON.stringify(reported));
}

export function openReported(cipher: PersonalCipher, id: string, token: string): Record<string, unknown> {
  return openJson(cipher, customerPlace(id, 'reported'), token, ReportedSchema);
}

/**
 * `changed_at` after a write, as the local journal's triggers keep it (migration 7): when anything the
 * queue shows changed, the latest of the row's times (never earlier than before); otherwise as it was.
 */
export function changedAtAfter(before: JournalCustomer, after: JournalCustomer): string {
  const moved =
    before.status !== after.status ||
    before.section !== after.section ||
    before.name !== after.name ||
    before.email !== after.email ||
    before.note !== after.note ||
    before.pendingDocuments !== after.pendingDocuments ||
    before.goneAt !== after.goneAt;
  if (!moved) return before.changedAt;
  return [after.lastRefreshed, after.statusSince, after.goneAt ?? '', before.changedAt].reduce(latest);
}
