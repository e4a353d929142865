// Being told (#39), end to end in browser mode: two desks of one team. Bob allows desktop notifications in
// Settings (the browser asks on his click); Alice, a lead, hands him a case and he is told by the browser's
// own notification, whose click opens the case. Alice then takes it over while Bob looks at it: main keeps
// that off the desktop (the case is on his focused screen, and it was told within the minute), so it is a
// toast. Bob turns off "A case is handed to me": a case handed to him then tells nothing, and one taken from
// him still does. `window.Notification` is observed in the page: what the desk asked the browser to show.
import type { Page } from '@playwright/test';
import { createServiceClient } from '#main/data/service/index.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { samplePerson } from '../support/person.ts';
import { expect, type PageGlobals, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { caseRow } from './support/queue-helpers.ts';
import { teamWithALead } from './support/team-with-a-lead.ts';

const team = teamWithALead('vetted_notifications_e2e');

type Shown = { title: string; body: string; tag: string; onclick: (() => void) | null };
type ObservedGlobals = PageGlobals & { shown: Shown[] };

/** Records each notification the page shows; permission and its request stay the browser's own. */
function observeNotifications(): void {
  // The browser's own class (this runs in the page, whose DOM types this file does not load).
  const Real = (
    globalThis as unknown as { Notification: { permission: string; requestPermission(): Promise<string> } }
  ).Notification;
  const shown: Shown[] = [];
  class Observed {
    static get permission() {
      return Real.permission;
    }
    static requestPermission() {
      return Real.requestPermission();
    }
    title: string;
    body: string;
    tag: string;
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body?: string; tag?: string } = {}) {
      this.title = title;
      this.body = options.body ?? '';
      this.tag = options.tag ?? '';
      shown.push(this);
    }
    close() {}
  }
  Object.assign(globalThis, { Notification: Observed, shown });
}

const shown = (page: Page) =>
  page.evaluate(() => (globalThis as ObservedGlobals).shown.map(({ title, body }) => ({ title, body })));

async function makeCustomer(lastName: string, email: string): Promise<string> {
  const { baseUrl, clientId, clientSecret } = team.rig.sandbox;
  const service = createServiceClient({ baseUrl, clientId, clientSecret });
  try {
    return (await service.customers.create(samplePerson('retry', lastName, email))).id;
  } finally {
    await service.close();
  }
}

/** A lead's action through Alice's own bridge (what her case's buttons call). */
async function asAlice(page: Page, action: 'reassign' | 'takeOver', customerId: string, to: string) {
  const result = await page.evaluate(
    ({ action, customerId, to }) => {
      const { claims } = (globalThis as PageGlobals).vetted ?? {};
      return action === 'reassign'
        ? claims?.reassign({ customerId, to, note: 'You know this customer.' })
        : claims?.takeOver({ customerId, reason: 'The customer called me.' });
    },
    { action, customerId, to },
  );
  expect(result?.ok, JSON.stringify(result)).toBe(true);
}

const nav = (page: Page, name: 'Queue' | 'Settings') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const toasts = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const casePane = (page: Page) => page.getByRole('region', { name: 'Case' });
const holderOf = (page: Page) => page.getByRole('region', { name: 'Who has this case' });

test('a case handed over is told on the desktop, opens on a click, and each kind can be turned off', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const bob = team.rig.reviewers.bob.login;
  const okafor = await makeCustomer('Okafor', 'notify-e2e-0@example.com');
  const brandt = await makeCustomer('Brandt', 'notify-e2e-1@example.com');
  const deskA = await runBrowserMode({
    port: 0,
    dataDir: await team.rig.deskDir('alice'),
    writeLog: () => {},
  });
  const deskB = await runBrowserMode({ port: 0, dataDir: await team.rig.deskDir('bob'), writeLog: () => {} });
  const viewport = { width: 1280, height: 800 };
  const a = await (await browser.newContext({ viewport })).newPage();
  const bobs = await browser.newContext({ viewport });
  await bobs.addInitScript(observeNotifications);
  const b = await bobs.newPage();
  try {
    await a.goto(deskA.launchUrl);
    await b.goto(deskB.launchUrl);
    for (const id of [okafor, brandt]) {
      const added = await a.evaluate((ref) => (globalThis as PageGlobals).vetted?.customers.add({ ref }), id);
      expect(added?.ok, JSON.stringify(added)).toBe(true);
    }
    await expect(caseRow(b, 'Brandt')).toBeVisible({ timeout: 20_000 });

    // Bob allows desktop notifications: the browser asks on his click (granted here, as a reviewer would).
    await nav(b, 'Settings');
    const kinds = b.getByRole('group', { name: 'Notifications' });
    await expect(kinds.getByRole('checkbox', { name: 'A case is handed to me' })).toBeChecked();
    await bobs.grantPermissions(['notifications'], { origin: new URL(deskB.launchUrl).origin });
    await kinds.getByRole('button', { name: 'Allow desktop notifications' }).click();
    await expect(kinds).toContainText('This browser shows them on the desktop.');
    await expectNoAxeViolations(b, { screen: 'Settings → Notifications', include: 'fieldset' });

    // Alice hands Okafor to Bob (on Settings, no case on screen): his desktop says so, not a toast; its click
    // opens the case.
    await asAlice(a, 'reassign', okafor, bob);
    await expect
      .poll(() => shown(b))
      .toEqual([{ title: 'Case assigned to you', body: expect.stringContaining('You know this customer.') }]);
    await expect(toasts(b).getByRole('button')).toHaveCount(0);
    await b.evaluate(() => (globalThis as ObservedGlobals).shown[0]?.onclick?.());
    await expect(casePane(b).getByRole('heading', { level: 2, name: /Okafor/ })).toBeVisible();
    await expect(holderOf(b)).toContainText('You have this since');

    // Taken over while Bob looks at it, within the minute: inside the window only.
    await asAlice(a, 'takeOver', okafor, bob);
    await expect(toasts(b)).toContainText('took over a case you held.');
    expect(await shown(b)).toHaveLength(1);

    // Bob turns off "A case is handed to me": Brandt handed to him says nothing, taken from him still tells
    // (Bob on Settings again: no case on screen).
    await nav(b, 'Settings');
    await kinds.getByRole('checkbox', { name: 'A case is handed to me' }).uncheck();
    await b.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(b.getByText('Settings saved.')).toBeVisible();
    await asAlice(a, 'reassign', brandt, bob);
    await asAlice(a, 'takeOver', brandt, bob);
    // Told in the order they happened: once the second is on the desktop, the first was never shown.
    await expect
      .poll(async () => (await shown(b)).map(({ title }) => title))
      .toEqual(['Case assigned to you', 'Case taken over']);
    await expect(toasts(b)).not.toContainText('Case assigned to you');
  } finally {
    await a.context().close();
    await bobs.close();
    await deskA.close();
    await deskB.close();
  }
});
