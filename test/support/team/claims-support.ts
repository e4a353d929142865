// A team store for the claims and roles tests: made by `team init`, reviewers added by `add-reviewer` (each
// logs in as themselves and calls the store as their desk does: main/team/claims/claim-store.ts, which
// appends the audit entries a change needs), customers written by the administrator, roles set by
// `set-role`. A claim's clock is moved by the administrator rewriting its times (the store's own clock
// decides expiry: see ageClaim).
import pg from 'pg';
import { afterAll, expect, vi } from 'vitest';
import type { Approvals } from '#main/features/team-interfaces/approvals.ts';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { approvalStore } from '#main/team/approvals/approval-store.ts';
import { teamApprovals } from '#main/team/approvals/team-approvals.ts';
import { type ClaimStore, claimStore } from '#main/team/claims/claim-store.ts';
import { teamSettings } from '#main/team/claims/team-roles.ts';
import { loadTeamKeys, type TeamKeys } from '#main/team/keys/key-ring.ts';
import { openTeamPool } from '#main/team/store/pool.ts';
import { addNamedLogin, initTeamStore, runTeam, type TestStore, uniqueName } from './admin-support.ts';

// Closed once the file's tests are done: a file may share one team across its tests.
const opened: Array<{ end(): Promise<void> }> = [];
afterAll(async () => {
  for (const client of opened.splice(0)) await client.end().catch(() => undefined);
});

export interface ClaimsReviewer {
  name: string;
  pool: pg.Pool;
  /** The store's claim functions as their desk calls them. */
  store: ClaimStore;
  /** The team key their join code carries. */
  teamKey: Buffer;
  /** The team's keys as the store held them when the reviewer was added. */
  keys: TeamKeys;
  connection: TeamConnection;
  password: string;
}

export interface ClaimsTeam {
  store: TestStore;
  admin: pg.Client;
  /** A reviewer added by add-reviewer; with 'add-hub', a hub's login (marked as one), calling as its desk would. */
  reviewer(prefix: string, command?: 'add-reviewer' | 'add-hub', name?: string): Promise<ClaimsReviewer>;
  setRole(name: string, role: 'lead' | 'reviewer'): Promise<void>;
  /** Customers c-1…c-n, waiting in `section` since one minute apart (c-1 the longest). */
  addCustomers(n: number, section?: string, from?: number): Promise<string[]>;
  /** Moves a claim back in time by `minutes`, as if its holder had been idle that long. */
  ageClaim(customerId: string, minutes: number): Promise<void>;
  auditOf(action: string): Promise<{ actor: string; customer_id: string | null; detail: string | null }[]>;
}

export async function claimsTeam(): Promise<ClaimsTeam> {
  const store = await initTeamStore();
  const admin = new pg.Client({ connectionString: store.url });
  await admin.connect();
  opened.push(admin);
  return {
    store,
    admin,
    async reviewer(prefix, command = 'add-reviewer', name = uniqueName(prefix)) {
      const added = await addNamedLogin(command, store, name);
      // As many connections as a test's simultaneous calls.
      const pool = openTeamPool(added.joinCode.connection, added.password, { max: 25 });
      opened.push(pool);
      const keys = await loadTeamKeys(pool, added.joinCode.teamKey);
      return {
        name: added.name,
        pool,
        store: claimStore({
          pool,
          target: added.joinCode.connection,
          sealer: keys.sealer,
        }),
        teamKey: added.joinCode.teamKey,
        keys,
        connection: added.joinCode.connection,
        password: added.password,
      };
    },
    async setRole(name, role) {
      const run = await runTeam('set-role', name, role, '--database', store.url, '--key-file', store.keyFile);
      expect(run, run.err).toMatchObject({ code: 0 });
    },
    async addCustomers(n, section = 'document', from = 1) {
      const ids = Array.from({ length: n }, (_, i) => `c-${from + i}`);
      for (const [i, id] of ids.entries()) {
        await admin.query(
          `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed,
             changed_at, profile)
           VALUES ($1, nextval('vetted.change_seq'), $2, $2, $3, $3, $3, $3, 'sealed')`,
          [id, section, new Date(Date.UTC(2026, 2, 1, 9, from + i)).toISOString()],
        );
      }
      return ids;
    },
    async ageClaim(customerId, minutes) {
      await admin.query(
        `UPDATE vetted.claims SET since = since - $2::interval, touched_at = touched_at - $2::interval,
           expires_at = expires_at - $2::interval WHERE customer_id = $1`,
        [customerId, `${minutes} minutes`],
      );
    },
    async auditOf(action) {
      const { rows } = await admin.query(
        'SELECT actor, customer_id, detail FROM vetted.audit_log WHERE action = $1 ORDER BY seq',
        [action],
      );
      return rows;
    },
  };
}

/**
 * What makes a team's audit chain the same on every run, for a test whose pages show its hashes: each
 * login's exact name (kept unique in the run's cluster by the caller), and the moment lee is made a lead
 * (the administrator's entry is dated by the clock, and the chain's hashes cover every entry's time).
 */
export interface FixedTeam {
  names: Record<'ana' | 'ben' | 'lee', string>;
  roleSetAt: string;
}

/** One store's team for a test file: ana and ben, reviewers, and lee, a lead. */
export async function reviewersAndALead(fixed?: FixedTeam): Promise<{
  team: ClaimsTeam;
  ana: ClaimsReviewer;
  ben: ClaimsReviewer;
  lee: ClaimsReviewer;
}> {
  const team = await claimsTeam();
  const add = (prefix: 'ana' | 'ben' | 'lee') =>
    team.reviewer(prefix, 'add-reviewer', fixed?.names[prefix] ?? uniqueName(prefix));
  const [ana, ben, lee] = [await add('ana'), await add('ben'), await add('lee')];
  // Only Date is faked, and only while set-role runs: the store's connections keep their real timers.
  if (fixed) vi.useFakeTimers({ toFake: ['Date'], now: new Date(fixed.roleSetAt) });
  try {
    await team.setRole(lee.name, 'lead');
  } finally {
    if (fixed) vi.useRealTimers();
  }
  return { team, ana, ben, lee };
}

export interface ClaimOutcome {
  outcome: string;
  holder: string | null;
}

/** A take through the desk's claim store: the outcome and who holds the case. */
export async function take(
  reviewer: ClaimsReviewer,
  customerId: string,
  how: 'take' | 'action' = 'take',
): Promise<ClaimOutcome> {
  const { outcome, holder } = await reviewer.store.take(customerId, how);
  return { outcome, holder };
}

export async function holderOf(team: ClaimsTeam, customerId: string): Promise<string | null> {
  const { rows } = await team.admin.query<{ holder: string | null }>(
    'SELECT holder FROM vetted.claims WHERE customer_id = $1',
    [customerId],
  );
  return rows[0]?.holder ?? null;
}

/** A desk's four eyes as the reviewer's desk runs it, on `keys`; it sweeps only when the test says. */
export function approvalsOf(
  reviewer: ClaimsReviewer,
  keys: TeamKeys = reviewer.keys,
): Approvals & { sweep(): Promise<number> } {
  const store = approvalStore({
    pool: reviewer.pool,
    target: reviewer.connection,
    sealer: keys.sealer,
  });
  const approvals = teamApprovals({
    store,
    settings: teamSettings(reviewer.store),
    cipher: keys.cipher,
    listen: () => async () => undefined,
    log: { warn: () => undefined } as never,
    every: () => () => undefined,
  });
  return Object.assign(approvals, { sweep: () => store.expire() });
}
