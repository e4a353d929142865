// Helpers for the administrator's tools' tests: run `team` in this process (the output an administrator
// reads), make an initialised team store, add reviewers with cluster-unique names (roles are cluster-wide).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, afterEach, expect } from 'vitest';
import { runTeamCli } from '#admin/cli.ts';
import type { TeamConnection } from '#main/ground/config/team-connection.ts';
import { decodeJoinCode, type JoinCode } from '#main/team/join-code.ts';
import { connectTeamClient, openTeamPool, TeamConnectionError } from '#main/team/store/pool.ts';
import { freshDatabase } from '../postgres/team-db.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-team-admin-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end().catch(() => undefined);
});

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function runTeam(...args: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runTeamCli(args, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

export const uniqueName = (prefix: string) => `${prefix}_${crypto.randomBytes(4).toString('hex')}`;

export function tempPath(name: string): string {
  return path.join(dir, `${crypto.randomBytes(4).toString('hex')}-${name}`);
}

export interface TestStore {
  url: string;
  keyFile: string;
}

export async function initTeamStore(): Promise<TestStore> {
  const url = await freshDatabase();
  const keyFile = tempPath('team.key');
  const run = await runTeam('init', '--database', url, '--key-file', keyFile);
  expect(run, run.err).toMatchObject({ code: 0 });
  return { url, keyFile };
}

export interface TestReviewer {
  name: string;
  password: string;
  joinCode: JoinCode;
  out: string;
}

/** The join code and the password, each on the line after its label. */
export function parseAddReviewer(out: string): { joinCode: string; password: string } {
  const lines = out.split('\n');
  const after = (label: string) => lines[lines.findIndex((line) => line.startsWith(label)) + 1] ?? '';
  return { joinCode: after('JOIN CODE'), password: after('ONE-TIME PASSWORD') };
}

/**
 * `add-reviewer` or `join-code` for `name` on `store`, with `keyFile`. A store on loopback without TLS is said
 * explicitly, as an administrator must (a URL with sslmode=verify-full, or --sslmode/--ca among `extra`,
 * chooses for itself).
 */
export function joinCodeCommand(
  command: 'add-reviewer' | 'add-hub' | 'join-code',
  name: string,
  store: TestStore,
  keyFile: string,
  ...extra: string[]
): Promise<CliRun> {
  const chosen =
    extra.includes('--sslmode') ||
    extra.includes('--ca') ||
    new URL(store.url).searchParams.get('sslmode') === 'verify-full';
  const tls = chosen ? [] : ['--sslmode', 'disable'];
  return runTeam(command, name, '--database', store.url, '--key-file', keyFile, ...tls, ...extra);
}

export function addTestReviewer(
  store: TestStore,
  prefix = 'alice',
  ...extra: string[]
): Promise<TestReviewer> {
  return addTestLogin('add-reviewer', store, prefix, ...extra);
}

/** A login added by `add-reviewer`, or by `add-hub` (a hub's, marked as one), its name unique in the cluster. */
export function addTestLogin(
  command: 'add-reviewer' | 'add-hub',
  store: TestStore,
  prefix: string,
  ...extra: string[]
): Promise<TestReviewer> {
  return addNamedLogin(command, store, uniqueName(prefix), ...extra);
}

/** A login named exactly `name`: the caller keeps it unique in the run's cluster (roles are cluster-wide). */
export async function addNamedLogin(
  command: 'add-reviewer' | 'add-hub',
  store: TestStore,
  name: string,
  ...extra: string[]
): Promise<TestReviewer> {
  const run = await joinCodeCommand(command, name, store, store.keyFile, ...extra);
  expect(run, run.err).toMatchObject({ code: 0 });
  const printed = parseAddReviewer(run.out);
  return { name, password: printed.password, joinCode: decodeJoinCode(printed.joinCode), out: run.out };
}

/** A pool logged in as the reviewer, from their join code and password (closed after the test). */
export function reviewerPool(reviewer: Pick<TestReviewer, 'joinCode' | 'password'>): pg.Pool {
  const pool = openTeamPool(reviewer.joinCode.connection, reviewer.password, { max: 2 });
  pools.push(pool);
  return pool;
}

export function trackPool(pool: pg.Pool): pg.Pool {
  pools.push(pool);
  return pool;
}

/** Connecting fails: the TeamConnectionError, checked to hold neither the password nor its stack's. */
export async function connectFailure(
  connection: TeamConnection,
  password: string,
): Promise<TeamConnectionError> {
  const error = await connectTeamClient(trackPool(openTeamPool(connection, password))).then(
    (client) => {
      client.release();
      return new Error('connected');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TeamConnectionError);
  expect(`${(error as Error).message} ${(error as Error).stack}`).not.toContain(password);
  return error as TeamConnectionError;
}
