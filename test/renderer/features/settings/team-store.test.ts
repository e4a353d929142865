import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { TeamStatus } from '#contract/team.ts';
import { type FakeApi, fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

const solo: TeamStatus = { mode: 'solo', store: 'not-joined', hub: 'unknown', restartNeeded: false };
const joined: TeamStatus = {
  mode: 'team',
  team: {
    teamId: '0b6c1f0e-4f3e-4c59-9a55-7d1d2b0f8a11',
    reviewer: 'alice',
    host: 'db.example.test',
    port: 5432,
    database: 'vetted',
    sslmode: 'verify-full',
  },
  store: 'connected',
  hub: 'listening',
  restartNeeded: true,
};

let fake: FakeApi;
let store: typeof import('#renderer/features/settings/team-store.ts');

beforeEach(async () => {
  fake = fakeApi({
    team: {
      status: vi.fn(async () => solo),
      join: vi.fn(async ({ password }: { password: string }) => {
        if (password === 'right') return joined;
        // The renderer's modules are fresh for each test: its VettedError is the one loaded now.
        const { VettedError } = await import('#contract/errors.ts');
        const words = 'The team store refused this password for alice.';
        throw new VettedError({ code: 'TeamWrongPassword', message: words, fields: { '/password': words } });
      }),
      leave: vi.fn(async () => {
        const { VettedError } = await import('#contract/errors.ts');
        throw new VettedError({ code: 'Internal', message: 'Something unexpected went wrong.' });
      }),
    },
  });
  await installFresh(fake);
  store = await import('#renderer/features/settings/team-store.ts');
});

describe('the team store', () => {
  it('puts a refusal about a field beside that field, and one about nothing in particular above', async () => {
    const { useTeamStore } = store;
    await useTeamStore.getState().load();
    expect(await useTeamStore.getState().join('vetted-join-1.x', 'wrong')).toBe(false);
    expect(useTeamStore.getState()).toMatchObject({
      fieldErrors: { password: 'The team store refused this password for alice.' },
      problem: null,
      status: solo,
    });
    expect(await useTeamStore.getState().join('vetted-join-1.x', 'right')).toBe(true);
    expect(useTeamStore.getState()).toMatchObject({ fieldErrors: {}, status: joined });
    expect(store.restartNotice(joined, 'electron')).toBe('Restart Vetted to work on the team store.');
    expect(store.restartNotice(joined, 'browser')).toBe(
      'Restart Vetted to work on the team store. Stop it (Ctrl+C where `npm start` runs) and run `npm start` again.',
    );

    expect(await useTeamStore.getState().leave()).toBe(false);
    expect(useTeamStore.getState()).toMatchObject({
      problem: 'Something unexpected went wrong.',
      status: joined,
    });
  });

  it('follows main’s pushed status while watched, and stops after', () => {
    const { useTeamStore } = store;
    const stop = useTeamStore.getState().watch();
    fake.push('team.status', { ...solo, restartNeeded: true });
    expect(store.restartNotice(useTeamStore.getState().status!, 'electron')).toBe(
      'Restart Vetted to work on this desk’s own journal again.',
    );
    stop();
    expect(fake.listeners('team.status')).toBe(0);
  });
});
