// The team store's claim, role and settings functions (migration 7), called as this desk's reviewer, their
// answers checked with zod and their refusals turned into words: a lead's action refused by the store, a
// reviewer who is not in the team, a case the store does not know. Any other failure (the store unreachable,
// the login removed) reads as team mode's connection failures do.
//
// A function that changes a claim or a setting answers the audit entries its change needs; they are appended
// to the team's chain here, in the function's own transaction, under this desk's login (what the store
// stamps), dated by the store's clock as the change is (a desk's clock may be minutes off). The store
// refuses to commit the change without them (migration 7's require_audit_entry).
import pg from 'pg';
import { z } from 'zod';
import { DeskError } from '#contract/errors.ts';
import type { LeadAction } from '#contract/roles.ts';
import { refusal } from '#main/data/failures.ts';
import type { AuditSealer } from '#main/data/journal/audit-chain.ts';
import { AuditDueSchema } from '../journal/audit.ts';
import { callAudited } from '../journal/audited-call.ts';
import { PgSeq, parseRow, parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import { inTransaction } from '../store/sql.ts';
import { isKeyChange, keyChangedOn, teamFailure } from '../team-failures.ts';

const AuditedSchema = z.object({ audit: AuditDueSchema });

const OutcomeSchema = z
  .object({
    outcome: z.enum(['taken', 'held', 'refused', 'released', 'reassigned', 'none']),
    customer_id: z.string().nullable(),
    holder: z.string().nullable(),
    seq: PgSeq.nullable(),
    audit: AuditDueSchema,
  })
  .transform(({ customer_id, audit, ...outcome }) => ({ ...outcome, customerId: customer_id, audit }));
export type ClaimOutcome = Omit<z.infer<typeof OutcomeSchema>, 'audit'>;

const ReviewerSchema = z.object({ login: z.string(), role: z.enum(['reviewer', 'lead']) });
const RoleSchema = z.object({ role: z.enum(['administrator', 'lead', 'reviewer']) });
const SettingSchema = z.object({ name: z.string(), value: z.unknown() });

export type StoreRole = z.infer<typeof RoleSchema>['role'];

/** The settings as the store names them (team_settings rows), and as the contract does. */
export const SETTING_NAMES = {
  claimIdleMinutes: 'claim_idle_minutes',
  fourEyes: 'four_eyes',
  lockIdleMaxMinutes: 'lock_idle_max_minutes',
} as const;

export interface ClaimStoreOptions {
  pool: pg.Pool;
  /** Where the store is, for the words of a connection failure. */
  target: ConnectionTarget;
  /** Seals the audit entries this desk appends (auditSealer of the team key). */
  sealer: AuditSealer;
}

export function claimStore({ pool, target, sealer }: ClaimStoreOptions) {
  /** Runs a statement; a refusal the store gives on purpose reads as the desk's own. */
  const run = async <T>(work: () => Promise<T>, action?: LeadAction, to?: string): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      // A desk on a team key a rotation replaced: its audit entry (or sealed note) is refused by the store.
      if (isKeyChange(error)) throw await keyChangedOn(pool);
      throw refusalOf(error, action, to) ?? teamFailure(error, target);
    }
  };
  /** Calls a function that changes something and appends the entries it answers, in one transaction. */
  const audited = <T extends z.infer<typeof AuditedSchema>>(
    schema: z.ZodType<T>,
    sql: string,
    params: unknown[],
    action?: LeadAction,
    to?: string,
  ) =>
    run(
      () =>
        inTransaction(pool, (client) =>
          callAudited(client, sealer, { schema, table: 'claims', sql, params }),
        ),
      action,
      to,
    );
  const outcome = async (sql: string, params: unknown[], action?: LeadAction, to?: string) => {
    const { audit: _, ...answer } = await audited(OutcomeSchema, sql, params, action, to);
    return answer;
  };

  return {
    take: (customerId: string, how: 'take' | 'action') =>
      outcome('SELECT * FROM vetted.claim_take($1, $2)', [customerId, how]),
    release: (customerId: string) => outcome('SELECT * FROM vetted.claim_release($1)', [customerId]),
    reassign: (customerId: string, to: string, sealedNote: string) =>
      outcome(
        'SELECT * FROM vetted.claim_reassign($1, $2, $3)',
        [customerId, to, sealedNote],
        'reassign',
        to,
      ),
    takeOver: (customerId: string, sealedReason: string) =>
      outcome('SELECT * FROM vetted.claim_take_over($1, $2)', [customerId, sealedReason], 'takeOver'),
    /** The case taken and the change that took it, or null when none waits. */
    next: async (sections: readonly string[]) => {
      const { customerId, seq } = await outcome('SELECT * FROM vetted.claim_next($1)', [sections]);
      return customerId === null || seq === null ? null : { customerId, seq };
    },
    /** Ends the claims idle past the team's setting (each audited); how many. */
    expire: async () =>
      (await audited(AuditedSchema, 'SELECT vetted.claims_expire() AS audit', [])).audit.length,
    reviewers: () =>
      run(async () =>
        parseRows(
          ReviewerSchema,
          'reviewer_roles',
          (await pool.query('SELECT * FROM vetted.team_reviewers()')).rows,
        ),
      ),
    /** This login's role: 'administrator' for the store's owner (allowed everything). */
    role: () =>
      run(async () => {
        const { rows } = await pool.query('SELECT vetted.role_of(session_user) AS role');
        return parseRow(RoleSchema, 'reviewer_roles', rows).role;
      }),
    settings: () =>
      run(async () => {
        const { rows } = await pool.query('SELECT name, value FROM vetted.team_settings');
        return new Map(parseRows(SettingSchema, 'team_settings', rows).map((row) => [row.name, row.value]));
      }),
    setSetting: async (name: string, value: unknown) => {
      await audited(
        AuditedSchema,
        'SELECT vetted.set_team_setting($1, $2) AS audit',
        [name, JSON.stringify(value)],
        'changeTeamSettings',
      );
    },
  };
}

export type ClaimStore = ReturnType<typeof claimStore>;

/** The store's own refusals (migration 7's hints, a missing customer), in the desk's words. */
function refusalOf(error: unknown, action: LeadAction | undefined, to: string | undefined): DeskError | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  if (error.hint === 'vetted:lead-only' && action) return refusal.leadOnly(action);
  if (error.hint === 'vetted:no-such-reviewer' && to !== undefined) return refusal.noSuchReviewer(to);
  if (error.code === '23503') return refusal.unknownCustomer();
  if (error.code === '23514') return new DeskError('InvalidSetting', 'The team store refused this value.');
  return null;
}
