// A desk that still holds the team key a rotation replaced (#30): it says in words that the team's key changed
// and how to get the new one, and loses nothing it had queued (the draft says why it waits, #37); joined again with a fresh code, its queued
// draft goes to the team outbox, sealed under the team's new data key.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from 'vitest';
import { rotateTeamKey } from '#admin/rotate-key.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { openForm } from '#main/team/outbox/rows.ts';
import { decodeTeamKey, encodeTeamKey } from '#main/team/team-key.ts';
import { removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

test('a desk on the old key says the key changed, keeps its queued draft, and sends it once joined again', async () => {
  const url = await freshDatabase();
  const store = await makeTeamStore(url);
  const keyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-rotate-')), 'team.key');
  fs.writeFileSync(keyFile, `${encodeTeamKey(store.teamKey)}\n`, { mode: 0o600 });
  const joining = await startDesk();
  await joining.call('team.join', { code: await store.code(), password: store.password });
  await joining.close();
  const { dataDir } = joining;
  const settingsFile = path.join(dataDir, 'settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  const port = settings.team.connection.port;

  // Away from the store (nothing listens on port 1): a submitted draft waits on the desk.
  settings.team.connection.port = 1;
  fs.writeFileSync(settingsFile, JSON.stringify(settings));
  const away = await startDesk(dataDir);
  const { id } = await away.call('drafts.create');
  await away.call('drafts.save', { id, form: validForm() });
  expect((await away.call('drafts.submit', { ids: [id] })).queued).toEqual([id]);
  await away.close();

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await rotateTeamKey(admin, { keyFile, reseal: true });
    const newKey = decodeTeamKey(fs.readFileSync(keyFile, 'utf8'));

    settings.team.connection.port = port;
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
    const stale = await startDesk(dataDir);
    try {
      const status = await stale.call('team.status');
      expect(status).toMatchObject({ mode: 'team', store: 'refused' });
      expect(status.problem).toMatch(
        /^The team's key was changed on .*Ask your administrator for a new join code/,
      );
      // The draft says why it waits, in the same words.
      expect(await stale.call('drafts.get', { id })).toMatchObject({
        state: 'queued',
        problem: expect.stringMatching(
          /^The team's key was changed on .*Ask your administrator for a new join code/,
        ),
      });
      await stale.call('team.leave');
      await stale.call('team.join', {
        code: await store.code({ teamKey: newKey }),
        password: store.password,
      });
      expect(await stale.call('drafts.get', { id })).toMatchObject({ state: 'queued' });
    } finally {
      await stale.close();
    }

    const again = await startDesk(dataDir);
    try {
      await until(
        () =>
          again.call('drafts.get', { id }).then(
            () => false,
            (error: unknown) => (error as { code?: string }).code === 'NotFound',
          ),
        'the queued draft to leave the desk for the team outbox',
      );
      const { rows } = await admin.query('SELECT draft_id, form FROM vetted.team_outbox');
      expect(rows).toHaveLength(1);
      const keys = await loadTeamKeys(admin, newKey);
      expect(openForm(keys.cipher, rows[0])).toMatchObject({ lastName: validForm().lastName });
      expect(rows[0].form.split(':')[0]).toMatch(/^d/);
    } finally {
      await again.close();
    }
  } finally {
    await admin.end();
    removeDir(dataDir);
    fs.rmSync(path.dirname(keyFile), { recursive: true, force: true });
  }
});
