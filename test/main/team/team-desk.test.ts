import { expect, test } from 'vitest';
import { VettedError } from '#contract/errors.ts';
import { encodeTeamKey } from '#main/team/team-key.ts';
import { everyFile, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore } from '#test/support/team/team-store.ts';

test('Settings → Team through the desk: no password, key or code in any output, event, log line or file', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const h = await startDesk();
  const code = await store.code();
  const secrets = [store.password, 'typed-wrong-password', encodeTeamKey(store.teamKey), code];
  try {
    expect(await h.call('team.status')).toEqual({
      mode: 'solo',
      store: 'not-joined',
      hub: 'unknown',
      restartNeeded: false,
    });
    const wrong = await h
      .call('team.join', { code: await store.code(), password: 'typed-wrong-password' })
      .catch((e) => e);
    expect(wrong).toBeInstanceOf(VettedError);
    expect((wrong as VettedError).code).toBe('TeamWrongPassword');

    const joined = await h.call('team.join', { code, password: store.password });
    expect(joined).toMatchObject({ mode: 'team', store: 'connected', restartNeeded: true });
    expect(h.events.filter((e) => e.event === 'team.status').map((e) => e.payload)).toEqual([joined]);
    expect(await h.call('team.status')).toEqual(joined);
    const left = await h.call('team.leave');
    // Leaving keeps what this reviewer did in the team: here, nothing yet.
    expect(left).toEqual({
      mode: 'solo',
      store: 'not-joined',
      hub: 'unknown',
      restartNeeded: false,
      kept: { auditEntries: 0, notes: 0 },
    });
  } finally {
    await h.close();
  }
  try {
    const said = JSON.stringify([h.outputs, h.events, h.logLines]);
    for (const secret of secrets) expect(said).not.toContain(secret);
    for (const bytes of everyFile(h.dataDir)) {
      for (const secret of secrets) expect(bytes.includes(secret)).toBe(false);
    }
  } finally {
    removeDir(h.dataDir);
  }
});
