import { z } from 'zod';
import { ExportFileSchema, QueueExportInputSchema } from './case.ts';
import { ClaimNoteSchema } from './claims.ts';
import { ServiceCustomerIdSchema } from './service-id.ts';

/**
 * Four eyes (team mode): a lead's team setting puts the one-time retry (with the full SSN) and an export
 * with names behind a second reviewer's approval. The maker prepares the action; it waits, sealed with the
 * team key, until a lead other than the maker approves (then it leaves, exactly once) or rejects it, the maker
 * withdraws it, or it expires. A solo desk never needs an approval.
 */

export const APPROVAL_KINDS = ['retry', 'exportNames'] as const;
export const ApprovalKindSchema = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKindSchema>;

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'cancelled', 'expired', 'sent'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export const APPROVAL_KIND_TITLES: Record<ApprovalKind, string> = {
  retry: 'One-time retry',
  exportNames: 'Queue export with names',
};

export const ApprovalSchema = z.object({
  id: z.uuid(),
  kind: ApprovalKindSchema,
  /** The case (a retry's); null for an export. */
  customerId: z.string().nullable(),
  /** Who asked: their database login. */
  maker: z.string(),
  /** This desk's reviewer asked. */
  mine: z.boolean(),
  requestedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  state: z.enum(APPROVAL_STATES),
  checker: z.string().nullable(),
  decidedAt: z.iso.datetime().nullable(),
  /** The checker's note (approving or rejecting). */
  note: z.string().nullable(),
  /** What the service answered a sent retry (its status), or "exported". */
  outcome: z.string().nullable(),
  /** This reviewer may approve or reject it: a lead, not its maker, while it waits. */
  canDecide: z.boolean(),
});
export type Approval = z.infer<typeof ApprovalSchema>;

/** One line of what will be sent: the SSN always masked (a full SSN never reaches the renderer). */
export const ApprovalFieldSchema = z.object({ label: z.string(), value: z.string() });

/** An approval with what it will send, for the checker (and the maker) to read. */
export const ApprovalDetailSchema = ApprovalSchema.extend({
  fields: z.array(ApprovalFieldSchema),
  /**
   * Whether the SSN that will be sent is the one the checker read on the customer's document and typed in
   * (`approvals.checkSsn`): main compares, so the SSN itself never reaches the checker's screen.
   */
  ssnCheck: z.enum(['unchecked', 'matches', 'differs']),
});
export type ApprovalDetail = z.infer<typeof ApprovalDetailSchema>;

/** Which actions wait for a second reviewer here (a lead's team setting; a solo desk: none). */
export const ApprovalsRequiredSchema = z.record(ApprovalKindSchema, z.boolean());

const ApprovalIdSchema = z.strictObject({ id: z.uuid() });
const DecisionSchema = z.strictObject({ id: z.uuid(), note: ClaimNoteSchema });

export const approvalChannels = {
  'approvals.required': { input: z.undefined(), output: ApprovalsRequiredSchema },
  /** What waits for approval (or, approved, for its maker to take): the queue's "Waiting for approval". */
  'approvals.list': { input: z.undefined(), output: z.array(ApprovalSchema) },
  /** The case's latest approval, if any (its panel). */
  'approvals.forCase': {
    input: z.strictObject({ customerId: ServiceCustomerIdSchema }),
    output: z.object({ approval: ApprovalSchema.nullable() }),
  },
  /** What will be sent, the SSN masked. */
  'approvals.get': { input: ApprovalIdSchema, output: ApprovalDetailSchema },
  /**
   * A lead compares the SSN on the customer's document with the one that will be sent (audited): Vetted says
   * whether they match. The check stands in for a reveal, so the full SSN stays in main.
   */
  'approvals.checkSsn': {
    input: z.strictObject({
      id: z.uuid(),
      ssn: z
        .string()
        .trim()
        .regex(/^\d{3}-?\d{2}-?\d{4}$/, 'Type the nine digits of the SSN as the document shows them.'),
    }),
    output: ApprovalDetailSchema,
  },
  /** A lead, not the maker: the action leaves now, exactly once (a retry is sent from this desk). */
  'approvals.approve': { input: DecisionSchema, output: ApprovalSchema },
  'approvals.reject': { input: DecisionSchema, output: ApprovalSchema },
  /** The maker withdraws what waits. */
  'approvals.cancel': { input: ApprovalIdSchema, output: ApprovalSchema },
  /** The maker asks for an export with names (when it needs an approval). */
  'approvals.requestExport': {
    input: QueueExportInputSchema.required({ revealReason: true }),
    output: ApprovalSchema,
  },
  /** The maker takes the approved export, once. */
  'approvals.collect': { input: ApprovalIdSchema, output: ExportFileSchema },
} as const;

export const approvalEvents = {
  /** An approval changed, on any desk of the team (live): the queue section and the case panel follow. */
  'approvals.changed': ApprovalSchema,
} as const;
