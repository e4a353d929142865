// Settings → Team's restart notice: a "Restart now" button under Electron only; browser mode says how.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type FakeApi, fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

let fake: FakeApi;
let restarts: number;
let store: typeof import('#renderer/features/settings/team-store.ts');
let section: typeof import('#renderer/features/settings/TeamSection.tsx');

const REFUSAL = 'Vetted runs in browser mode here and cannot restart itself.';

beforeEach(async () => {
  restarts = 0;
  fake = fakeApi({
    app: {
      restart: vi.fn(async () => {
        restarts++;
        if (restarts > 1) {
          const { VettedError } = await import('#contract/errors.ts');
          throw new VettedError({ code: 'RestartByHand', message: REFUSAL });
        }
        return { restarting: true };
      }),
    },
  });
  await installFresh(fake);
  store = await import('#renderer/features/settings/team-store.ts');
  section = await import('#renderer/features/settings/TeamSection.tsx');
});

const notice = (host: 'electron' | 'browser' | undefined, busy = false) =>
  renderToStaticMarkup(
    createElement(section.RestartNotice, { notice: 'Restart Vetted.', host, busy, onRestart: () => {} }),
  );

describe('the restart notice', () => {
  it('offers a named button under Electron, disabled while a call is on its way', () => {
    expect(notice('electron')).toBe(
      '<div class="restart-notice"><p role="status">Restart Vetted.</p><button type="button">Restart now</button></div>',
    );
    expect(notice('electron', true)).toContain('<button type="button" disabled="">Restart now</button>');
  });

  it('has no button in browser mode (or before the host is known)', () => {
    expect(notice('browser')).not.toContain('<button');
    expect(notice(undefined)).not.toContain('<button');
  });

  it('restarts through main; a refusal is shown in main’s words', async () => {
    const { useTeamStore } = store;
    expect(await useTeamStore.getState().restart()).toBe(true);
    expect(useTeamStore.getState()).toMatchObject({ busy: false, problem: null });
    expect(await useTeamStore.getState().restart()).toBe(false);
    expect(useTeamStore.getState()).toMatchObject({ busy: false, problem: REFUSAL });
    expect(restarts).toBe(2);
  });
});
