// Opening and closing the team journal: the store must be at this Vetted's schema; the pool is its owner's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { openJournal } from '#main/data/journal/sqlite.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { openTeamJournal } from '#main/team/journal/index.ts';
import { TEAM_LATEST_VERSION } from '#main/team/store/migrations/index.ts';
import { TeamSchemaError } from '#main/team/store/migrations/runner.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { inboxEvent } from '#test/support/inbox-event.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { openDesk, teamStore } from '#test/support/team/team-journal.ts';

const pools: pg.Pool[] = [];
afterEach(async () => {
  for (const pool of pools.splice(0)) await pool.end();
});

it('refuses a database that is not a team store, in words', async () => {
  const pool = new pg.Pool({ connectionString: await freshDatabase() });
  pools.push(pool);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-desk-'));
  const local = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  try {
    const opening = openTeamJournal({ pool, teamKey: createTeamKey(), local });
    await expect(opening).rejects.toBeInstanceOf(TeamSchemaError);
    await expect(opening).rejects.toThrow(/not a Vetted team store/);
  } finally {
    await local.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('gives the team store’s schema version, an inbox on the team store, and closes without ending the pool', async () => {
  const desk = await openDesk(await teamStore());
  expect(desk.journal.schemaVersion).toBe(TEAM_LATEST_VERSION);
  const inbox = desk.journal.openInbox();
  const [recorded] = await inbox.record([inboxEvent('ev-open')], { delivered: true });
  expect(recorded?.duplicate).toBe(false);
  await inbox.close();
  expect(await desk.journal.events.get('ev-open')).toMatchObject({ id: 'ev-open' });
  await desk.journal.close();
  const { rows } = await desk.pool.query<{ one: number }>('SELECT 1 AS one');
  expect(rows).toEqual([{ one: 1 }]);
});
