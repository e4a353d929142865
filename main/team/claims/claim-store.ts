// The team store's claim, role and settings functions (migration "05"), called as this desk's reviewer, their
// answers checked with zod and their refusals turned into words: a lead's action refused by the store, a
// reviewer who is not in the team, a case the store does not know. Any other failure (the store unreachable,
// the login removed) reads as team mode's connection failures do.
import pg from 'pg';
import { z } from 'zod';
import { DeskError } from '../../../contract/errors.ts';
import type { LeadAction } from '../../../contract/roles.ts';
import { refusal } from '../../failures.ts';
import { PgSeq, parseRow, parseRows } from '../journal/rows.ts';
import type { ConnectionTarget } from '../store/connection-error.ts';
import type { Queryable } from '../store/sql.ts';
import { teamFailure } from '../team-failures.ts';

const OutcomeSchema = z.object({
  outcome: z.enum(['taken', 'held', 'refused', 'released', 'reassigned']),
  holder: z.string().nullable(),
  seq: PgSeq.nullable(),
});
export type ClaimOutcome = z.infer<typeof OutcomeSchema>;

const ReviewerSchema = z.object({ login: z.string(), role: z.enum(['reviewer', 'lead']) });
const RoleSchema = z.object({ role: z.enum(['administrator', 'lead', 'reviewer']) });
const SettingSchema = z.object({ name: z.string(), value: z.unknown() });

export type StoreRole = z.infer<typeof RoleSchema>['role'];

/** The settings as the store names them (team_settings rows), and as the contract does. */
export const SETTING_NAMES = { claimIdleMinutes: 'claim_idle_minutes' } as const;

export interface ClaimStoreOptions {
  db: Queryable;
  /** Where the store is, for the words of a connection failure. */
  target: ConnectionTarget;
}

export function claimStore({ db, target }: ClaimStoreOptions) {
  /** Runs a statement; a refusal the store gives on purpose reads as the desk's own. */
  const run = async <T>(work: () => Promise<T>, action?: LeadAction, to?: string): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw refusalOf(error, action, to) ?? teamFailure(error, target);
    }
  };
  const outcome = (sql: string, params: unknown[], action?: LeadAction, to?: string) =>
    run(async () => parseRow(OutcomeSchema, 'claims', (await db.query(sql, params)).rows), action, to);

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
    next: (sections: readonly string[]) =>
      run(async () => {
        const { rows } = await db.query('SELECT vetted.claim_next($1) AS id', [sections]);
        return parseRow(z.object({ id: z.string().nullable() }), 'claims', rows).id;
      }),
    /** Ends the claims idle past the team's setting (each audited); how many. */
    expire: () =>
      run(async () => {
        const { rows } = await db.query('SELECT vetted.claims_expire() AS n');
        return parseRow(z.object({ n: z.number().int() }), 'claims', rows).n;
      }),
    reviewers: () =>
      run(async () =>
        parseRows(
          ReviewerSchema,
          'reviewer_roles',
          (await db.query('SELECT * FROM vetted.team_reviewers()')).rows,
        ),
      ),
    /** This login's role: 'administrator' for the store's owner (allowed everything). */
    role: () =>
      run(async () => {
        const { rows } = await db.query('SELECT vetted.role_of(session_user) AS role');
        return parseRow(RoleSchema, 'reviewer_roles', rows).role;
      }),
    settings: () =>
      run(async () => {
        const { rows } = await db.query('SELECT name, value FROM vetted.team_settings');
        return new Map(parseRows(SettingSchema, 'team_settings', rows).map((row) => [row.name, row.value]));
      }),
    setSetting: (name: string, value: unknown) =>
      run(async () => {
        await db.query('SELECT vetted.set_team_setting($1, $2)', [name, JSON.stringify(value)]);
      }, 'changeTeamSettings'),
  };
}

export type ClaimStore = ReturnType<typeof claimStore>;

/** The store's own refusals (migration "05"'s hints, a missing customer), in the desk's words. */
function refusalOf(error: unknown, action: LeadAction | undefined, to: string | undefined): DeskError | null {
  if (!(error instanceof pg.DatabaseError)) return null;
  if (error.hint === 'vetted:lead-only' && action) return refusal.leadOnly(action);
  if (error.hint === 'vetted:no-such-reviewer' && to !== undefined) return refusal.noSuchReviewer(to);
  if (error.code === '23503') return refusal.unknownCustomer();
  if (error.code === '23514') return new DeskError('InvalidSetting', 'The team store refused this value.');
  return null;
}
