import { z } from 'zod';
import { QueueRowSchema } from './queue.ts';
import { ServiceCustomerIdSchema } from './service-id.ts';

export const HistorySourceSchema = z.enum(['created', 'poll', 'event']);

export const StatusChangeSchema = z.object({
  status: z.string(),
  at: z.iso.datetime(),
  source: HistorySourceSchema,
  /** The webhook event that reported it, when one did. */
  eventId: z.string().nullable(),
});
export type StatusChange = z.infer<typeof StatusChangeSchema>;

/** An action the status allows, or why not. */
export const ActionStateSchema = z.object({ allowed: z.boolean(), reason: z.string().nullable() });

export const CustomerDetailSchema = QueueRowSchema.extend({
  url: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  type: z.string(),
  created: z.iso.datetime().nullable(),
  lastRefreshedAt: z.iso.datetime().nullable(),
  history: z.array(StatusChangeSchema),
  /** The links the service returned (funding sources, transfers…): shown as links only. */
  links: z.array(z.object({ rel: z.string(), href: z.string() })),
  actions: z.object({ retry: ActionStateSchema, upload: ActionStateSchema }),
  /** Personal data Vetted holds for this customer (it created it); shown masked until revealed. */
  personal: z.object({ ssnMasked: z.string() }).nullable(),
  /**
   * The fields the service reported beyond the interface document's (address, phone, any other): by name
   * only, shown masked; their values come only through a reveal. Main always sends it.
   */
  reported: z.array(z.object({ field: z.string(), label: z.string() })).optional(),
});
export type CustomerDetail = z.infer<typeof CustomerDetailSchema>;

export const CustomerIdSchema = z.strictObject({ id: ServiceCustomerIdSchema });

/** An id or the customer's URL, pasted by the reviewer. */
export const CustomerRefSchema = z.strictObject({ ref: z.string().trim().min(1).max(2048) });

export const RevealInputSchema = z.strictObject({
  id: ServiceCustomerIdSchema,
  reason: z.string().trim().min(5, 'Say why you need to see this (at least 5 characters).').max(500),
});

/** A revealed customer: what Vetted gave on creation (null when not created here) and what the service reports. */
export const PersonalDataSchema = z.object({
  dateOfBirth: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  postalCode: z.string().nullable(),
  ssnLastFour: z.string().nullable(),
  reported: z.array(z.object({ field: z.string(), label: z.string(), value: z.string() })),
});
export type PersonalData = z.infer<typeof PersonalDataSchema>;

const REPORTED_LABELS: Record<string, string> = {
  address1: 'Address line 1',
  address2: 'Address line 2',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  phone: 'Phone',
  correlationId: 'Correlation id',
  businessName: 'Business name',
};

/** A field the service reported, by a name a person reads; one Vetted does not know, as the service named it. */
export function reportedFieldLabel(field: string): string {
  return Object.hasOwn(REPORTED_LABELS, field) ? (REPORTED_LABELS[field] as string) : field;
}

/** Progress of a long job (start-up reconcile, import): drives a progress bar. */
export const ProgressSchema = z.object({
  job: z.enum(['reconcile', 'import', 'outbox', 'catch-up']),
  done: z.number().int(),
  total: z.number().int().nullable(),
  finished: z.boolean(),
  message: z.string().nullable(),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const ImportAvailabilitySchema = z.object({ available: z.boolean(), reason: z.string().nullable() });
