// What an approval will send, in lines a checker reads: a retry's form field by field (the SSN always masked:
// the checker compares it with the document instead, sameSsn), an export's section, search and reason. And the retry's Idempotency-Key, derived from the
// approval's id: whoever sends it, however often the send is tried, the service sees one retry.
import { createHash } from 'node:crypto';
import type { ApprovalKind } from '#contract/approvals.ts';
import { type CustomerForm, CustomerFormSchema } from '#contract/drafts.ts';

const LABELS: Record<keyof CustomerForm, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  type: 'Type',
  address1: 'Address',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  dateOfBirth: 'Date of birth',
  tin: 'SSN',
  ipAddress: 'IP address',
};

const EXPORT_LABELS: Record<string, string> = {
  section: 'Section',
  search: 'Search',
  revealReason: 'Reason',
};

/** "•••-••-6789": the last four digits, as the case shows them. */
export const maskedSsn = (ssn: string) => `•••-••-${ssn.slice(-4)}`;

/** Whether two SSNs are the same nine digits, however they are punctuated. */
export const sameSsn = (a: string, b: string) => a.replace(/\D/g, '') === b.replace(/\D/g, '');

/** The SSN a retry's payload will send; null for an export or a payload already deleted. */
export function ssnOf(kind: ApprovalKind, payload: string | null): string | null {
  if (payload === null || kind !== 'retry') return null;
  return CustomerFormSchema.parse(JSON.parse(payload)).tin ?? null;
}

export function fieldsOf(
  kind: ApprovalKind,
  payload: string | null,
): Array<{ label: string; value: string }> {
  if (payload === null) return [];
  if (kind === 'retry') {
    const form = CustomerFormSchema.parse(JSON.parse(payload));
    return (Object.keys(LABELS) as Array<keyof CustomerForm>)
      .filter((field) => form[field])
      .map((field) => {
        const value = form[field] as string;
        return { label: LABELS[field], value: field === 'tin' ? maskedSsn(value) : value };
      });
  }
  const input = JSON.parse(payload) as Record<string, string>;
  return Object.entries(EXPORT_LABELS).map(([key, label]) => ({ label, value: input[key] || '(none)' }));
}

/** A UUID derived from the approval's id (SHA-256, shaped as a version-5-like UUID). */
export function idempotencyKeyOf(approvalId: string): string {
  const hex = createHash('sha256').update(`vetted:approval:${approvalId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
