/**
 * Drafts of new customers, the outbox that submits them exactly once, and the one-time retry.
 *
 * Field names are the service's (`firstName` … `tin`). On a draft, `tin` is the last four digits of
 * the SSN (what `POST /customers` takes); on the retry form it is the full `NNN-NN-NNNN`, which
 * crosses renderer → main once and never comes back. Check a form with `validateCustomerCreate` /
 * `validateCustomerRetry` from `customer-rules.ts`: main runs the same functions before sending.
 */
import { z } from 'zod';
import { ApprovalSchema } from './approvals.ts';
import { QueueRowSchema } from './queue.ts';
import { ServiceCustomerIdSchema } from './service-id.ts';

/** Long enough for anything a person types; the rules (50 characters…) are the validator's job. */
const text = z.string().max(320);

/**
 * A customer form as typed: every field optional, so that an incomplete draft can be saved. Absent and
 * "" both mean "not given". `type` is `personal` on every form Vetted makes.
 */
export const CustomerFormSchema = z.strictObject({
  firstName: text.optional(),
  lastName: text.optional(),
  email: text.optional(),
  type: text.optional(),
  address1: text.optional(),
  address2: text.optional(),
  city: text.optional(),
  /** A code of `US_STATES`. */
  state: text.optional(),
  postalCode: text.optional(),
  /** `YYYY-MM-DD` */
  dateOfBirth: text.optional(),
  /** Draft: the last 4 digits of the SSN. Retry form: the full SSN `NNN-NN-NNNN`. */
  tin: text.optional(),
  /** Optional; empty by default. */
  ipAddress: text.optional(),
});
export type CustomerForm = z.infer<typeof CustomerFormSchema>;

/** One broken rule, as `validateCustomerCreate` returns it (`FieldError` of customer-rules.ts). */
export const FieldErrorSchema = z.object({
  /** JSON pointer of the field, e.g. "/email"; "/" for the whole form. */
  path: z.string(),
  code: z.string(),
  message: z.string(),
  /** How to fix it, for a person. */
  hint: z.string(),
});

/**
 * draft → queued → sending → created (linked to its customer)
 *                          ↘ rejected (the service's field errors, on the form's fields)
 *                          ↘ attention (any other refusal, in plain words, with "Try again")
 * Network failures and 5xx keep a draft `queued`: the outbox retries it by itself.
 */
export const DRAFT_STATES = ['draft', 'queued', 'sending', 'created', 'rejected', 'attention'] as const;
export const DraftStateSchema = z.enum(DRAFT_STATES);
export type DraftState = z.infer<typeof DraftStateSchema>;

/** What the reviewer may do with a draft now; the buttons follow these. */
export const DraftActionsSchema = z.object({
  /** Autosave accepted (false while queued or sending, or while it may already have been created). */
  edit: z.boolean(),
  /** "Submit" (state draft or rejected). */
  submit: z.boolean(),
  /** "Try again" (state attention). */
  tryAgain: z.boolean(),
  /** "Discard" (nothing can have been created from it). */
  discard: z.boolean(),
  /** "Link to the existing customer" after a `Duplicate` e-mail rejection. */
  linkDuplicate: z.boolean(),
});

/** A draft's state, without personal data: the payload of `draft.updated` and of `drafts.list`. */
export const DraftStatusSchema = z.object({
  id: z.uuid(),
  state: DraftStateSchema,
  updated: z.iso.datetime(),
  /** The customer it created or was linked to (state `created`). */
  customerId: z.string().nullable(),
  /** Failed sends so far (network, 5xx): the backoff grows with it. */
  attempts: z.number().int(),
  /** When the outbox sends it again (state `queued` after a failure). */
  nextAttemptAt: z.iso.datetime().nullable(),
  /** Why it is waiting, rejected or needs attention, in plain words; never personal data. */
  problem: z.string().nullable(),
  /** The service's field errors, by JSON pointer ("/email" → how to fix it). */
  fieldErrors: z.record(z.string(), z.string()),
  /** The existing customer with this e-mail, after a `Duplicate` rejection. */
  duplicateOf: z.string().nullable(),
  actions: DraftActionsSchema,
});
export type DraftStatus = z.infer<typeof DraftStatusSchema>;

/** A draft as the form shows it: its status and the form, decrypted (only sent when a draft is opened). */
export const DraftViewSchema = DraftStatusSchema.extend({
  created: z.iso.datetime(),
  form: CustomerFormSchema,
});
export type DraftView = z.infer<typeof DraftViewSchema>;

const DraftIdSchema = z.strictObject({ id: z.uuid() });

export const SubmitResultSchema = z.object({
  /** Accepted into the outbox. */
  queued: z.array(z.uuid()),
  /** Refused by the contract rules: not queued; show the errors on the form. */
  invalid: z.array(z.object({ id: z.uuid(), errors: z.array(FieldErrorSchema) })),
  /** Not in a state that can be submitted (already queued, created, unknown…). */
  skipped: z.array(z.object({ id: z.uuid(), reason: z.string() })),
});
export type SubmitResult = z.infer<typeof SubmitResultSchema>;

/** For the status bar and the outbox panel. */
export const OutboxStatusSchema = z.object({
  counts: z.record(DraftStateSchema, z.number().int()),
  /** The service answered the last call (the status bar's online/offline). */
  online: z.boolean(),
  /** Drafts are being sent or wait for their next attempt. */
  draining: z.boolean(),
  inFlight: z.number().int(),
  /** The earliest retry scheduled, if any. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type OutboxStatus = z.infer<typeof OutboxStatusSchema>;

const CustomerRefSchema = z.strictObject({ customerId: ServiceCustomerIdSchema });

export const RetryPrefillSchema = z.object({
  customerId: ServiceCustomerIdSchema,
  /** Every field but `tin` (always ""): the SSN is typed in full by the reviewer. */
  form: CustomerFormSchema,
  /** Pre-filled from the draft that created the customer; false: the form starts empty. */
  fromDraft: z.boolean(),
});
export type RetryPrefill = z.infer<typeof RetryPrefillSchema>;

export const RetrySubmitInputSchema = z.strictObject({
  customerId: ServiceCustomerIdSchema,
  /** All fields, corrected, with the full `tin` `NNN-NN-NNNN`. */
  form: CustomerFormSchema,
  /** The reviewer confirmed: there is one retry only. */
  confirmed: z.literal(true),
});

export const RetryOutcomeSchema = z.object({
  customerId: ServiceCustomerIdSchema,
  /** The customer's status after the retry: `verified`, `document`, `suspended`, or any other. */
  status: z.string(),
  customer: QueueRowSchema,
});
export type RetryOutcome = z.infer<typeof RetryOutcomeSchema>;

/** Four eyes: the retry was not sent; it waits for a lead's approval (team mode, when the team says so). */
export const RetryWaitingSchema = z.object({ customerId: ServiceCustomerIdSchema, waiting: ApprovalSchema });
export type RetryWaiting = z.infer<typeof RetryWaitingSchema>;

const noInput = z.undefined();

export const draftChannels = {
  /** A new, empty draft (`type: personal`), saved at once. */
  'drafts.create': { input: noInput, output: DraftViewSchema },
  /** One draft with its form decrypted: call it when the reviewer opens the draft. */
  'drafts.get': { input: DraftIdSchema, output: DraftViewSchema },
  /** Every draft's state, oldest first, without personal data. */
  'drafts.list': { input: noInput, output: z.object({ drafts: z.array(DraftStatusSchema) }) },
  /** Autosave (debounced by the form): any partial form. Refused (`DraftLocked`) unless `actions.edit`. */
  'drafts.save': {
    input: z.strictObject({ id: z.uuid(), form: CustomerFormSchema }),
    output: z.object({ id: z.uuid(), savedAt: z.iso.datetime() }),
  },
  /** After the reviewer confirmed; audited. Refused (`DraftLocked`) unless `actions.discard`. */
  'drafts.discard': {
    input: z.strictObject({ id: z.uuid(), confirmed: z.literal(true) }),
    output: z.object({ id: z.uuid(), discarded: z.literal(true) }),
  },
  /** Checks each draft with the contract rules and queues the valid ones; progress on `job.progress` (`outbox`). */
  'drafts.submit': {
    input: z.strictObject({ ids: z.array(z.uuid()).min(1).max(5000) }),
    output: SubmitResultSchema,
  },
  /** "Try again" on a draft that needs attention: back to the outbox, with the same Idempotency-Key. */
  'drafts.tryAgain': { input: DraftIdSchema, output: DraftStatusSchema },
  /** After a `Duplicate` e-mail rejection: link the draft to the existing customer (state `created`). */
  'drafts.linkDuplicate': { input: DraftIdSchema, output: DraftStatusSchema },
  'outbox.status': { input: noInput, output: OutboxStatusSchema },
  /** The retry form's starting values; refused unless the customer is in `retry` with its retry unused. */
  'retry.prefill': { input: CustomerRefSchema, output: RetryPrefillSchema },
  /** The one retry: validated, sent once with an Idempotency-Key, then the customer is fetched. */
  'retry.submit': {
    input: RetrySubmitInputSchema,
    output: z.union([RetryOutcomeSchema, RetryWaitingSchema]),
  },
} as const;

export const draftEvents = {
  /** A draft changed state (or was saved): no personal data; open it with `drafts.get` for the form. */
  'draft.updated': DraftStatusSchema,
  /** A draft was discarded. */
  'draft.discarded': z.object({ id: z.uuid() }),
} as const;

export type DraftChannel = keyof typeof draftChannels;
