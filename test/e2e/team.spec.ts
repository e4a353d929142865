// A team of two desks and a hub, end to end (#18 "Done when"): two browser-mode desks (two pages), joined
// before they start, on one sandbox as "My service account"; the hub in-process holds the listener.
import type { Page } from '@playwright/test';
import pg from 'pg';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { type PgCluster, startPgCluster } from '../support/postgres/pg-cluster.ts';
import { startTeamRig, type TeamRig } from '../support/team/team-rig.ts';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { createThroughDraft, person } from './support/drafts-helpers.ts';
import { caseRow, section } from './support/queue-helpers.ts';

let cluster: PgCluster;
let rig: TeamRig;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPgCluster();
  rig = await startTeamRig(await cluster.createDatabase('vetted_team_e2e'));
});

test.afterAll(async () => {
  await rig?.close();
  await cluster?.stop();
});

const nav = (page: Page, name: 'Queue' | 'Settings') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();
const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });

/** The team's one customer, as the store has it (ids are not personal data: they are plain there). */
async function onlyCustomerId(): Promise<string> {
  const db = new pg.Client({ connectionString: rig.adminUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ id: string }>('SELECT id FROM vetted.customers');
    expect(rows).toHaveLength(1);
    return rows[0]!.id;
  } finally {
    await db.end();
  }
}

async function openDesk(who: 'alice' | 'bob') {
  const dataDir = await rig.deskDir(who);
  return runBrowserMode({ port: 0, dataDir, writeLog: () => undefined });
}

test('two desks and a hub: a draft, a webhook, a note, the team settings', async ({ browser }) => {
  test.setTimeout(180_000);
  const deskA = await openDesk('alice');
  const deskB = await openDesk('bob');
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  try {
    await a.goto(deskA.launchUrl);
    await b.goto(deskB.launchUrl);
    await nav(b, 'Queue');
    await section(b, 'Needs retry').click();

    // Page A creates the customer through a draft (team outbox → created once); page B sees it live.
    const who = person('retry', 'Lindqvist');
    const name = `${who.firstName} ${who.lastName}`;
    await createThroughDraft(a, who, 'Needs retry');
    await expect(caseRow(b, name)).toBeVisible({ timeout: 20_000 });

    // Someone retries the customer on the service: its one webhook to the hub moves the row on both pages.
    const customerId = await onlyCustomerId();
    await rig.retryOnService(customerId, 'Lindqvist', who.email);
    await expect(caseRow(b, name)).toHaveCount(0);
    await section(b, 'Verified').click();
    await expect(caseRow(b, name)).toBeVisible();
    await expect(a.getByText(/^Verified for/)).toBeVisible();

    // Page B writes a note on the case; page A sees it in the timeline.
    await caseRow(b, name).click();
    await b.getByRole('button', { name: 'Write a note' }).click();
    await b.getByRole('dialog', { name: 'Write a note' }).getByLabel('Note').fill('Bob checked the address.');
    await b.getByRole('button', { name: 'Save note' }).click();
    await expect(b.getByText('Note saved.')).toBeVisible();
    await expect(
      timeline(a).getByRole('listitem').filter({ hasText: 'Bob checked the address.' }),
    ).toBeVisible({ timeout: 20_000 });

    // The team queue has no accessibility violations.
    await nav(a, 'Queue');
    await expectNoAxeViolations(a, { screen: 'Team queue' });

    // Settings → Team: connected, and the hub listening.
    await nav(a, 'Settings');
    const membership = a.getByRole('region', { name: 'Team' }).getByRole('definition');
    await expect(membership.filter({ hasText: 'Connected' })).toBeVisible();
    await expect(membership.filter({ hasText: rig.reviewers.alice.login })).toBeVisible();
    await expect(membership.filter({ hasText: 'A hub is listening for the team’s webhooks.' })).toBeVisible();
  } finally {
    await a.context().close();
    await b.context().close();
    await deskA.close();
    await deskB.close();
  }
});
