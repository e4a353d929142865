// A joined desk at start: a store it must not write to keeps drafts on the desk (never sent around the team
// outbox); an unreachable store does not stop team mode (drafts wait here for it).
import pg from 'pg';
import { expect, test } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import { removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

async function joinedDataDir(url: string) {
  const store = await makeTeamStore(url);
  const h = await startDesk();
  await h.call('team.join', { code: await store.code(), password: store.password });
  await h.close();
  return { dataDir: h.dataDir, store };
}

async function draftReady(h: Awaited<ReturnType<typeof startDesk>>) {
  const { id } = await h.call('drafts.create');
  await h.call('drafts.save', { id, form: validForm() });
  return id;
}

test('a store at another schema: the desk starts on its own journal and refuses to send drafts around the team', async () => {
  const url = await freshDatabase();
  const { dataDir } = await joinedDataDir(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('UPDATE vetted.schema_version SET version = 99');
  await admin.end();

  const h = await startDesk(dataDir);
  try {
    expect(await h.call('team.status')).toMatchObject({ mode: 'team', restartNeeded: true });
    const id = await draftReady(h);
    const refused = await h.call('drafts.submit', { ids: [id] }).catch((error) => error);
    expect(refused).toBeInstanceOf(VettedError);
    expect((refused as VettedError).code).toBe('TeamNotOpen');
    expect(await h.call('drafts.get', { id })).toMatchObject({ state: 'draft' });
    expect(h.logLines.join('\n')).toMatch(/team store not opened/);
  } finally {
    await h.close();
    removeDir(dataDir);
  }
});

test('an unreachable store at start: team mode all the same, submitted drafts wait on the desk', async () => {
  const url = await freshDatabase();
  const { dataDir } = await joinedDataDir(url);
  // Point the joined connection at a port nothing listens on (1): the store is unreachable.
  const settingsFile = `${dataDir}/settings.json`;
  const fs = await import('node:fs');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  settings.team.connection.port = 1;
  fs.writeFileSync(settingsFile, JSON.stringify(settings));

  const h = await startDesk(dataDir);
  let draftId = '';
  try {
    expect(await h.call('team.status')).toMatchObject({ mode: 'team', restartNeeded: false });
    const id = await draftReady(h);
    draftId = id;
    const result = await h.call('drafts.submit', { ids: [id] });
    expect(result.queued).toEqual([id]);
    expect(await h.call('drafts.get', { id })).toMatchObject({ state: 'queued' });
  } finally {
    await h.close();
  }
  // The store answers again (here: the desk starts with the right port): the waiting draft moves into the
  // team outbox, under the key it was given on this desk, and leaves the desk.
  settings.team.connection.port = new URL(url).port === '' ? 5432 : Number(new URL(url).port);
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const again = await startDesk(dataDir);
  try {
    // The draft leaves the desk only after its row is committed in the team outbox: wait for that last
    // step, then the row is there to count (waiting for the row raced the local removal after it).
    await until(
      () =>
        again.call('drafts.get', { id: draftId }).then(
          () => false,
          (error: unknown) => (error as { code?: string }).code === 'NotFound',
        ),
      'the waiting draft to leave the desk',
    );
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rowCount } = await db.query('SELECT 1 FROM vetted.team_outbox');
      expect(rowCount).toBe(1);
    } finally {
      await db.end();
    }
  } finally {
    await again.close();
    removeDir(dataDir);
  }
});
