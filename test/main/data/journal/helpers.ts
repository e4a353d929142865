import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import { ensureGroupRole, grantReviewerRole } from '#admin/grants.ts';
import {
  type Journal,
  openJournal,
  type ServiceCustomer,
  type SqliteJournal,
} from '#main/data/journal/index.ts';
import { personalCipher } from '#main/data/journal/personal.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { osUserName } from '#main/ground/os-user.ts';
import { openTeamJournal } from '#main/team/journal/index.ts';
import { type Replication, startReplication } from '#main/team/journal/replication.ts';
import { migrateTeamStore } from '#main/team/store/migrations/index.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { detachedJournal } from './detached-journal.ts';

const tempDirs: string[] = [];
const openJournals: Journal[] = [];
/** The team store each journal file's team journal uses, so that reopening a file reaches its store. */
const teamStores = new Map<string, string>();
const openPools: pg.Pool[] = [];
const openReplications: Replication[] = [];

afterEach(async () => {
  // The replica writes into a local journal: it stops first.
  for (const replication of openReplications.splice(0)) await replication.close();
  for (const journal of openJournals.splice(0)) await journal.close();
  // After the journals: a pool is its owner's to close, never the journal's.
  for (const pool of openPools.splice(0)) await pool.end();
  teamStores.clear();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-journal-'));
  tempDirs.push(dir);
  return dir;
}

export function journalFile(): string {
  return path.join(tempDir(), 'data', 'journal.db');
}

/** A clock that only moves when told to, so that "longest waiting" is decided by the test. */
export function manualClock(start = '2026-03-01T09:00:00.000Z') {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    iso: () => new Date(now).toISOString(),
  };
}

export const MINUTE = 60_000;

/** The journal under test is the team journal (the `journal-team` project). */
export const TEAM_JOURNAL = process.env.VETTED_TEST_JOURNAL === 'team';
/** The team journal's local part is a replica: the queue sees what the store holds, as on a desk. */
export const WITHOUT_REPLICA = false;

/**
 * The journal under test, typed as the interface: every test here runs against any implementation of it.
 * `VETTED_TEST_JOURNAL=team` (the `journal-team` project): the team journal on a fresh team store, with a
 * local journal at `file`; the same `file` again reaches the same store, and `dataKey` is the team key too
 * (a journal reopened with another key must fail to read what the first one wrote, as locally).
 */
export async function openTestJournal(
  options: { file?: string; dataKey?: Buffer; clock?: () => Date; actor?: string } = {},
): Promise<Journal> {
  const file = options.file ?? journalFile();
  const dataKey = options.dataKey ?? createFieldKey();
  const sqlite = openJournal({
    file,
    dataKey,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.actor ? { actor: options.actor } : {}),
  });
  let journal: Journal = sqlite;
  if (process.env.VETTED_TEST_JOURNAL === 'detached') journal = detachedJournal(sqlite);
  if (process.env.VETTED_TEST_JOURNAL === 'team') {
    try {
      journal = await openTestTeamJournal(
        file,
        sqlite,
        options.dataKey ?? createTeamKey(),
        options.clock,
        options.actor,
      );
    } catch (error) {
      await sqlite.close();
      throw error;
    }
  }
  openJournals.push(journal);
  return journal;
}

async function openTestTeamJournal(
  file: string,
  local: SqliteJournal,
  teamKey: Buffer,
  clock?: () => Date,
  actor = osUserName(),
) {
  let url = teamStores.get(file);
  if (!url) {
    url = await freshDatabase();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await migrateTeamStore(admin);
      const group = `${admin.database}_reviewers`;
      await ensureGroupRole(admin, group);
      await grantReviewerRole(admin, group);
    } finally {
      await admin.end();
    }
    teamStores.set(file, url);
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await ensureLogin(admin, actor, `${admin.database}_reviewers`);
  } finally {
    await admin.end();
  }
  // As a reviewer: the login is who did what (audit, notes), with a reviewer's grants and no more.
  const login = new URL(url);
  login.username = actor;
  const pool = new pg.Pool({ connectionString: login.toString(), max: 4 });
  openPools.push(pool);
  // As on a desk: the local journal follows the store, and a write resolves once its change is local.
  const replication = startReplication({
    pool,
    cipher: personalCipher(teamKey),
    local,
    log: createLogger(() => undefined),
  });
  openReplications.push(replication);
  await replication.catchUp();
  return openTeamJournal({
    pool,
    teamKey,
    local,
    ...(clock ? { clock } : {}),
    onCommitted: (seq) => replication.upTo(seq),
  });
}

const BASE = 'https://api.service.test';

/** A customer as the service answers for it. */
export function serviceCustomer(overrides: Partial<ServiceCustomer> & { id: string }): ServiceCustomer {
  const { id } = overrides;
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    email: `${id}@example.com`,
    type: 'personal',
    status: 'verified',
    created: '2026-02-01T08:00:00.000Z',
    _links: { self: { href: `${BASE}/customers/${id}`, type: 'application/vnd.service.v1.hal+json' } },
    ...overrides,
  };
}

/**
 * The reviewer's login for `actor` (roles are the cluster's, shared by every test database): made once,
 * with the administrator's password (the same each time, so a test elsewhere never sees it change), and a
 * member of this store's reviewers.
 */
async function ensureLogin(admin: pg.Client, actor: string, group: string): Promise<void> {
  const role = pg.escapeIdentifier(actor);
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN`);
  } catch (error) {
    // Another test file made it first (42710), or at the same moment (23505).
    if (!['42710', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
  }
  // Two test files (two Vitest workers) may set the same role's password at the same moment: PostgreSQL refuses
  // the second writer of its catalogue row ("tuple concurrently updated") instead of waiting, so it tries again.
  await untilNotConcurrent(() =>
    admin.query(`ALTER ROLE ${role} PASSWORD ${pg.escapeLiteral(admin.password ?? '')}`),
  );
  await untilNotConcurrent(() => admin.query(`GRANT ${pg.escapeIdentifier(group)} TO ${role}`));
}

/** Runs a catalogue change again while another session's change of the same row refuses it (bounded). */
async function untilNotConcurrent(change: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await change();
      return;
    } catch (error) {
      if (attempt >= 20 || !/tuple concurrently updated/.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}
