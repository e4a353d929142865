// The team store's four-eyes functions (migration 8), called as this desk's reviewer: each answers the audit
// entries its change needs, appended to the team's chain here in the function's own transaction and dated by
// the store's clock, as its expiry is (the store refuses the commit without them). The store's refusals (not a lead, the maker's own, already decided or
// expired) read as the desk's own words; any other failure as team mode's connection failures do.
import pg from 'pg';
import { z } from 'zod';
import { APPROVAL_KINDS, APPROVAL_STATES } from '#contract/approvals.ts';
import { DeskError } from '#contract/errors.ts';
import { refusal } from '#main/data/failures.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { AuditDueSchema } from '../journal/audit.ts';
import { callAudited } from '../journal/audited-call.ts';
import { PgTime, PgTimeOrNull, parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import { inTransaction } from '../store/sql.ts';
import { isKeyChange, keyChangedOn, teamFailure } from '../team-failures.ts';

const PayloadDueSchema = z.object({ payload: z.string().nullable(), audit: AuditDueSchema });

export const ApprovalRowSchema = z
  .object({
    id: z.string(),
    kind: z.enum(APPROVAL_KINDS),
    customer_id: z.string().nullable(),
    maker: z.string(),
    requested_at: PgTime,
    expires_at: PgTime,
    state: z.enum(APPROVAL_STATES),
    checker: z.string().nullable(),
    decided_at: PgTimeOrNull,
    note: z.string().nullable(),
    outcome: z.string().nullable(),
  })
  .transform((row) => ({
    id: row.id,
    kind: row.kind,
    customerId: row.customer_id,
    maker: row.maker,
    requestedAt: row.requested_at,
    expiresAt: row.expires_at,
    state: row.state,
    checker: row.checker,
    decidedAt: row.decided_at,
    sealedNote: row.note,
    outcome: row.outcome,
  }));
export type ApprovalRow = z.output<typeof ApprovalRowSchema>;

const COLUMNS =
  'id::text, kind, customer_id, maker, requested_at, expires_at, state, checker, decided_at, note, outcome';

export interface ApprovalStoreOptions {
  pool: pg.Pool;
  target: ConnectionTarget;
  sealer: AuditSealer;
}

export function approvalStore({ pool, target, sealer }: ApprovalStoreOptions) {
  const run = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      // A desk on a team key a rotation replaced: its audit entry (or sealed payload) is refused by the store.
      if (isKeyChange(error)) throw await keyChangedOn(pool);
      throw refusalOf(error) ?? teamFailure(error, target);
    }
  };
  /** One transaction: the function's answer, its audit entries appended. */
  const audited = <T extends { audit: z.infer<typeof AuditDueSchema> }>(
    schema: z.ZodType<T>,
    sql: string,
    params: unknown[],
  ) =>
    run(() =>
      inTransaction(pool, (client) =>
        callAudited(client, sealer, { schema, table: 'approvals', sql, params }),
      ),
    );
  const rows = async (where: string, params: unknown[]) =>
    run(async () =>
      parseRows(
        ApprovalRowSchema,
        'approvals',
        (await pool.query(`SELECT ${COLUMNS} FROM vetted.approvals WHERE ${where}`, params)).rows,
      ),
    );

  return {
    request: (id: string, kind: string, customerId: string | null, sealedPayload: string) =>
      audited(
        z.object({ audit: AuditDueSchema }),
        'SELECT vetted.approval_request($1, $2, $3, $4) AS audit',
        [id, kind, customerId, sealedPayload],
      ),
    decide: (id: string, approve: boolean, sealedNote: string) =>
      audited(PayloadDueSchema, 'SELECT payload, audit FROM vetted.approval_decide($1, $2, $3)', [
        id,
        approve,
        sealedNote,
      ]),
    finish: (id: string, outcome: string) =>
      audited(PayloadDueSchema, 'SELECT payload, audit FROM vetted.approval_finish($1, $2)', [id, outcome]),
    cancel: (id: string) =>
      audited(z.object({ audit: AuditDueSchema }), 'SELECT vetted.approval_cancel($1) AS audit', [id]),
    /** Ends the pending approvals past their time, deleting their payloads; how many. */
    expire: async () =>
      (await audited(z.object({ audit: AuditDueSchema }), 'SELECT vetted.approvals_expire() AS audit', []))
        .audit.length,
    get: async (id: string) => (await rows('id = $1', [id]))[0],
    open: () => rows(`state IN ('pending', 'approved') ORDER BY requested_at, id`, []),
    latestFor: async (customerId: string) =>
      (await rows('customer_id = $1 ORDER BY requested_at DESC, id LIMIT 1', [customerId]))[0],
    sealedPayload: (id: string) =>
      run(async () => {
        const { rows: found } = await pool.query('SELECT payload FROM vetted.approvals WHERE id = $1', [id]);
        return (found[0]?.payload as string | null | undefined) ?? null;
      }),
  };
}

export type ApprovalStore = ReturnType<typeof approvalStore>;

/** The store's own refusals (migration 8's hints), in the desk's words. */
function refusalOf(error: unknown): DeskError | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  switch (error.hint) {
    case 'vetted:lead-only':
      return refusal.leadOnly('approve');
    case 'vetted:own-approval':
      return new DeskError('OwnApproval', 'You asked for this: another lead of the team must approve it.');
    case 'vetted:no-such-approval':
      return new DeskError('NoSuchApproval', 'Nothing with this id waits for approval.');
    case 'vetted:approval-settled':
      return new DeskError('ApprovalSettled', `Too late: ${error.message.replace(/^This approval /, 'it ')}`);
    case 'vetted:not-yours':
      return new DeskError('NotYourApproval', error.message);
  }
  if (error.code === '23505') {
    return new DeskError('AlreadyWaiting', 'This case’s retry already waits for approval.');
  }
  if (error.code === '23503') return refusal.unknownCustomer();
  return null;
}
