import { z } from 'zod';
import { AGEING_SECTIONS, AgeingTargetsSchema } from './queue-view.ts';
import { isServiceId, ServiceCustomerIdSchema } from './service-id.ts';

/**
 * Team mode's claims: who holds a case ("Ana has this"), taking, releasing, reassigning and taking over,
 * the next unclaimed case, the queue's work by who holds it; and every case's link (`vetted://case/<id>`).
 * A solo desk holds every case: it answers without claims (`claim: null`) and `team.me` says `claims: false`.
 */

/** A reviewer as the team names them: their database login (audit rows, notes and claims carry it). */
export const ReviewerNameSchema = z
  .string()
  .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'Choose one of the team’s reviewers.');

/**
 * Why a reviewer may not change a case another holds (retry, upload): the desk's refusal, and what its case
 * screen says before asking. Words for the reviewer who reads it, the holder named.
 */
export const claimedByWords = (holder: string) =>
  `Only ${holder} can change this case on the service while they hold it.`;

/** How a claim came to be: taken by hand, on a first action, as the next case; given by a lead; taken over. */
export const CLAIM_HOWS = ['take', 'action', 'next', 'reassign', 'takeOver', 'release', 'expire'] as const;
export type ClaimHow = (typeof CLAIM_HOWS)[number];

export const ClaimSchema = z.object({
  customerId: z.string(),
  holder: z.string(),
  /** The holder is this desk's reviewer. */
  mine: z.boolean(),
  since: z.iso.datetime(),
  how: z.enum(CLAIM_HOWS),
  /** Who made it so: the holder, or the lead who reassigned it or took it over. */
  by: z.string(),
  /** A reassignment's note or a take-over's reason. */
  note: z.string().nullable(),
});
export type Claim = z.infer<typeof ClaimSchema>;

/** A case and its claim: null when nobody holds it (and always on a solo desk). */
export const CaseClaimSchema = z.object({ customerId: z.string(), claim: ClaimSchema.nullable() });
export type CaseClaim = z.infer<typeof CaseClaimSchema>;

/** A reassignment's note, a take-over's reason: kept sealed with the team key (it may name the customer). */
export const ClaimNoteSchema = z
  .string()
  .trim()
  .min(3, 'Say why, in a few words (at least 3 characters).')
  .max(500, 'At most 500 characters.');

const CaseInputSchema = z.strictObject({ customerId: ServiceCustomerIdSchema });

/** The queue's work by who holds it (null: nobody): waiting and overdue per section with an ageing target. */
export const HolderCountsSchema = z.object({
  holder: z.string().nullable(),
  mine: z.boolean(),
  waiting: z.record(z.enum(AGEING_SECTIONS), z.number().int()),
  overdue: z.record(z.enum(AGEING_SECTIONS), z.number().int()),
  /** Every case held, in any section. */
  held: z.number().int(),
});
export const ClaimCountsSchema = z.object({
  holders: z.array(HolderCountsSchema),
  targets: AgeingTargetsSchema,
  at: z.iso.datetime(),
});
export type ClaimCounts = z.infer<typeof ClaimCountsSchema>;

export const TeamReviewerSchema = z.object({
  login: z.string(),
  role: z.enum(['reviewer', 'lead']),
  /** This desk's reviewer. */
  me: z.boolean(),
});

/** Why the previous holder (or the new one) is told: a case taken over, reassigned away or to them, expired. */
export const ClaimNoticeSchema = z.object({
  customerId: z.string(),
  kind: z.enum(['takenOver', 'reassignedAway', 'reassignedToYou', 'expired']),
  by: z.string(),
  note: z.string().nullable(),
  /** In words, e.g. "lee took over a case you held: …". */
  text: z.string(),
});
export type ClaimNotice = z.infer<typeof ClaimNoticeSchema>;

/** The custom scheme of case links, registered by the installers (electron-builder.yml `protocols`). */
export const CASE_LINK_SCHEME = 'vetted';

export const caseLink = (customerId: string) =>
  `${CASE_LINK_SCHEME}://case/${encodeURIComponent(customerId)}`;

/**
 * The case a link names (`vetted://case/<id>`, the id percent-encoded, a trailing slash allowed), or null for
 * anything else: a malformed encoding, or an id no customer of the service could have (service-id.ts).
 */
export function caseOfLink(link: string): string | null {
  const match = /^vetted:\/\/case\/([^/?#]+)\/?$/i.exec(link.trim());
  if (!match) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[1] as string);
  } catch {
    return null;
  }
  return isServiceId(id) ? id : null;
}

export const CaseLinkSchema = z.object({
  customerId: z.string(),
  /** `vetted://case/<id>`: opens the case on any desk of the team where Vetted is installed. */
  link: z.string(),
  /** Browser mode: this desk's own address of the case (`http://127.0.0.1:<port>/#/case/<id>`); else null. */
  address: z.string().nullable(),
});

export const claimChannels = {
  'claims.get': { input: CaseInputSchema, output: CaseClaimSchema },
  /** Takes the case for this reviewer; refused in words (ClaimedByOther) when another reviewer holds it. */
  'claims.take': { input: CaseInputSchema, output: CaseClaimSchema },
  'claims.release': { input: CaseInputSchema, output: CaseClaimSchema },
  /** A lead's: gives the case to a reviewer of the team, with a note. */
  'claims.reassign': {
    input: z.strictObject({
      customerId: ServiceCustomerIdSchema,
      to: ReviewerNameSchema,
      note: ClaimNoteSchema,
    }),
    output: CaseClaimSchema,
  },
  /** A lead's: takes the case from whoever holds it, with a reason (audited; the holder is told). */
  'claims.takeOver': {
    input: z.strictObject({ customerId: ServiceCustomerIdSchema, reason: ClaimNoteSchema }),
    output: CaseClaimSchema,
  },
  /** Takes the unclaimed case that has waited longest (in one section, or every one with a target). */
  'claims.next': {
    input: z.strictObject({ section: z.enum(AGEING_SECTIONS).optional() }).optional(),
    output: z.object({ claim: ClaimSchema.nullable() }),
  },
  'claims.counts': { input: z.undefined(), output: ClaimCountsSchema },
  'claims.reviewers': { input: z.undefined(), output: z.array(TeamReviewerSchema) },
  'case.link': { input: CaseInputSchema, output: CaseLinkSchema },
} as const;

export const claimEvents = {
  /** A case's claim changed, on any desk of the team (live): the queue row and the case follow. */
  'claims.changed': CaseClaimSchema,
  /** This reviewer lost a case (taken over, reassigned, expired) or was given one. */
  'claims.notice': ClaimNoticeSchema,
  /** A case link was opened (`vetted://case/<id>`): show that case, focused, whatever screen is open. */
  'case.open': CaseInputSchema,
} as const;
