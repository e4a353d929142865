// A desk whose team store goes away (#37), in browser mode, its connection to the store through the tests'
// fault proxy: the queue says nothing for a gap of seconds, says in words that the store has not answered
// once it has been away STORE_AWAY_NOTICE_AFTER_MS (the page's clock moved on, not waited for), takes no
// focus, and says briefly that the store is back once it answers. Screenshots at 1280×800 and 1440×900, light
// and dark, go to test-results/store-away for a look (the seconds vary: look-store-away.spec.ts has baselines).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { STORE_AWAY_NOTICE_AFTER_MS } from '#contract/store-presence.ts';
import { openSettings } from '#main/ground/config/settings-store.ts';
import { openFileKeyVault } from '#main/ground/vault/vault.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { createMembership } from '#main/team/membership.ts';
import { type FaultProxy, startFaultProxy } from '../support/network/fault-proxy.ts';
import { type PgCluster, startPgCluster } from '../support/postgres/pg-cluster.ts';
import { makeTeamStore, type TestTeamStore } from '../support/team/team-store.ts';
import { expect, type PageGlobals, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';

let cluster: PgCluster;
let store: TestTeamStore;
let proxy: FaultProxy;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPgCluster();
  store = await makeTeamStore(await cluster.createDatabase('vetted_store_away'));
  proxy = await startFaultProxy({ host: store.connection.host, port: store.connection.port });
  // A desk joined before it starts, on its built-in sandbox, reaching its store through the proxy.
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'vetted-store-away-'));
  const code = await store.code({ connection: { ...store.connection, host: '127.0.0.1', port: proxy.port } });
  await createMembership({
    vault: openFileKeyVault({ dir: dataDir }),
    settings: openSettings({ dir: dataDir }),
    startedOn: null,
  }).join(code, store.password);
});

test.afterAll(async () => {
  await proxy?.close();
  await cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** What main says of the store now (the renderer's own channel, asked from the page). */
const awaySince = (page: Page) =>
  page.evaluate(async () => {
    const answer = await (globalThis as PageGlobals).vetted?.team.presence();
    return answer?.ok ? answer.value.awaySince : 'no answer';
  });

async function screenshots(page: Page, name: string) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(viewport);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const size = `${viewport.width}x${viewport.height}`;
      await page.screenshot({ path: `test-results/store-away/${name}-${size}-${colorScheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('the queue says when the team store has been away a while, what still works, and that it is back', async ({
  page,
}) => {
  // Three axe analyses, eight screenshots and the listener's back-off (up to 15 s) on a loaded machine.
  test.setTimeout(180_000);
  const desk = await runBrowserMode({ port: 0, dataDir, writeLog: () => undefined });
  try {
    await page.clock.install();
    await page.goto(desk.launchUrl);
    await expect(page.getByRole('heading', { level: 2, name: 'Queue' })).toBeVisible();
    const notice = page.getByRole('status', { name: 'Team store' });
    await expect(notice).toBeEmpty();
    await expect
      .poll(() => proxy.open(), { message: 'the desk’s session with its store' })
      .toBeGreaterThan(0);
    expect(await awaySince(page)).toBeNull();

    // The reviewer is typing a search when the store goes away.
    const search = page.getByRole('searchbox');
    await search.focus();
    proxy.cut();
    await expect
      .poll(() => awaySince(page), { message: 'main to say the store is away' })
      .toEqual(expect.any(Number));
    // A gap of seconds passes silently: the page's time held a second short of the threshold, by main's
    // account of when the store went (the page's clock runs as the machine's, as main's does).
    const since = (await awaySince(page)) as number;
    await page.clock.pauseAt(since + STORE_AWAY_NOTICE_AFTER_MS - 1_000);
    await expect(notice).toBeEmpty();
    await page.clock.fastForward(2_000);
    await expect(notice).toContainText('The team store has not answered for 11 s');
    // A screen reader hears the time in words, which change once a minute (not each second).
    await expect(notice.locator('.visually-hidden')).toHaveText('under a minute');
    await expect(notice).toContainText(
      'This desk keeps working from its own copy: drafts you submit wait here and are sent once it answers. ' +
        'Notes, claims and approvals need the store: they can be done once it answers.',
    );
    // Not a dialog: the reviewer's place is kept.
    await expect(search).toBeFocused();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Its time moves on, in minutes once past the first.
    await page.clock.fastForward(60_000);
    await expect(notice).toContainText('The team store has not answered for 1 min');
    await expect(notice.locator('.visually-hidden')).toHaveText('1 minute');
    // axe waits on the page's timers: the clock runs again ("1 min" stays for a minute: the shots hold still).
    await page.clock.resume();
    await expectNoAxeViolations(page, { screen: 'Queue, the team store away' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(page, { screen: 'Queue, the team store away, dark' });
    await screenshots(page, 'queue-store-away');

    // From here the page's time moves only when the test moves it: "back" stays for its screenshots.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    proxy.pass();
    // The desk's listener tries again on its own back-off (at most 15 s).
    await expect(notice).toContainText('The team store answers again', { timeout: 30_000 });
    expect(await awaySince(page)).toBeNull();
    await screenshots(page, 'queue-store-back');
    // The clock runs again for axe, and "back" has its few seconds.
    await page.clock.resume();
    await expectNoAxeViolations(page, { include: '.store-notice', screen: 'Queue, the team store back' });
    // Well past the few seconds "back" stays.
    await page.clock.fastForward(60_000);
    await expect(notice).toBeEmpty();
  } finally {
    await desk.close();
  }
});
