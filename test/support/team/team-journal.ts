// Desks on one team store for team tests: each a team journal with its own local journal and pool.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach } from 'vitest';
import type { Journal } from '#main/data/journal/index.ts';
import { openJournal } from '#main/data/journal/sqlite.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { openTeamJournal, type TeamJournalOptions } from '#main/team/journal/index.ts';
import { loadTeamKeys, type TeamKeys } from '#main/team/keys/key-ring.ts';
import { migrateTeamStore } from '#main/team/store/migrations/index.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { freshDatabase } from '../postgres/team-db.ts';

const opened: Array<() => Promise<void>> = [];

afterEach(async () => {
  // Newest first: journals before their pools, pools before the clients that made their stores.
  for (const close of opened.splice(0).reverse()) await close();
});

/** A connected client, closed after the test. */
export async function connectTo(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  opened.push(() => client.end());
  return client;
}

/** A fresh team store at the latest schema, and its team key. */
export async function teamStore(): Promise<{ url: string; teamKey: Buffer }> {
  const url = await freshDatabase();
  await migrateTeamStore(await connectTo(url));
  return { url, teamKey: createTeamKey() };
}

export interface Desk {
  journal: Journal;
  /** The desk's own SQLite journal underneath. */
  local: Journal;
  pool: pg.Pool;
  localFile: string;
  /** The team's keys as the store held them when the desk opened. */
  teamKeys: TeamKeys;
}

/** A desk on the store: its team journal, local journal and pool, all closed after the test. */
export async function openDesk(
  store: { url: string; teamKey: Buffer },
  options: Pick<TeamJournalOptions, 'clock' | 'onCommitted'> = {},
): Promise<Desk> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-desk-'));
  opened.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const pool = new pg.Pool({ connectionString: store.url, max: 4 });
  opened.push(() => pool.end());
  const localFile = path.join(dir, 'journal.db');
  const local = openJournal({ file: localFile, dataKey: createFieldKey() });
  const teamKeys = await loadTeamKeys(pool, store.teamKey);
  const journal = await openTeamJournal({ pool, teamKey: store.teamKey, keys: teamKeys, local, ...options });
  opened.push(() => journal.close());
  return { journal, local, pool, localFile, teamKeys };
}
