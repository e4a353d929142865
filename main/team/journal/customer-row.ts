// A team store customer row and the journal's `JournalCustomer`, both ways. Everything that names a person
// (name, e-mail, links, the queue line) rides sealed in `profile`; the replica's change reader
// (replica-rows.ts) reads rows through `replicaCustomerOf` too, so this is the one place the row's format is
// decided.
import { z } from 'zod';
import { SectionSchema } from '#contract/queue.ts';
import { JournalError } from '#main/data/journal/errors.ts';
import { customerPlace, type PersonalCipher, type PersonalPlace } from '#main/data/journal/personal.ts';
import type { ReplicaCustomer } from '#main/data/journal/replica.ts';
import type { JournalCustomer } from '#main/data/journal/repositories/customers.ts';
import { AddressSchema, type PersonalData } from '#main/data/journal/repositories/personal-data.ts';
import { LinksSchema } from '#main/data/journal/service-record.ts';
import { latest } from '#main/data/journal/time.ts';
import { jsonOf, PgSeq, PgText, PgTime, PgTimeOrNull } from './rows.ts';

export const CustomerRowSchema = z.object({
  id: z.string(),
  seq: PgSeq,
  status: PgText,
  section: SectionSchema.exclude(['drafts']),
  status_since: PgTime,
  created: PgTime,
  last_refreshed: PgTime,
  changed_at: PgTime,
  gone_at: PgTimeOrNull,
  pending_documents: z.number().int().nonnegative(),
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
  links: LinksSchema,
  // A profile sealed without a note (an older writer) reads as one without.
  note: z.string().nullable().optional(),
});
type Profile = z.infer<typeof ProfileSchema>;

export const PersonalDataSchema = z.object({
  address: AddressSchema,
  dateOfBirth: z.string(),
  ssnLastFour: z.string(),
});

const ReportedSchema = z.record(z.string(), z.unknown());

/**
 * Opens a sealed JSON column; a token that opens to something else is a damaged store, said in words that
 * name the place and never the value (nor JSON.parse's message, which quotes it: it is personal data).
 */
export function openJson<T>(
  cipher: PersonalCipher,
  place: PersonalPlace,
  token: string,
  schema: z.ZodType<T>,
): T {
  const value = jsonOf(schema, cipher.open(place, token));
  if (value !== undefined) return value;
  throw new JournalError(
    `The team store's ${place.column} of ${place.table} ${place.id} is not in the form this Vetted reads.`,
  );
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
    links: profile.links,
    goneAt: row.gone_at,
    pendingDocuments: row.pending_documents,
    note: profile.note ?? null,
    changedAt: row.changed_at,
  };
}

/** A row as a desk's replica keeps it: the customer with its change number and its personal data opened. */
export function replicaCustomerOf(row: CustomerRow, cipher: PersonalCipher): ReplicaCustomer {
  // The replica derives the section itself.
  const { section: _section, ...customer } = customerOf(row, cipher);
  return {
    ...customer,
    seq: row.seq,
    personal: row.personal ? openPersonal(cipher, row.id, row.personal) : null,
    reported: row.reported ? openReported(cipher, row.id, row.reported) : null,
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
