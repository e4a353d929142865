// The lead's Team screen end to end (#28): two browser-mode desks on one team, Alice a lead and Bob a
// reviewer. Alice has "Team" in her navigation and sees both desks online; what Bob does on his desk (a
// customer submitted, the case taken, a note) shows on her screen without a reload, and in her trends. Bob has
// no "Team" entry, and reaching it by its address tells him why. axe on every state, light and dark;
// screenshots of the screen at 1280×800 and 1440×900 in both schemes are written to test-results/team-lead-view/
// to look at.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { createThroughDraft, person } from './support/drafts-helpers.ts';
import { teamWithALead } from './support/team-with-a-lead.ts';

const team = teamWithALead('vetted_lead_view_e2e');

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const teamScreen = (page: Page) => page.getByRole('region', { name: 'Team' });
const reviewerRow = (page: Page, login: string) =>
  teamScreen(page)
    .getByRole('table', { name: /Each reviewer/ })
    .getByRole('row', { name: new RegExp(login) });

async function customerIdOf(email: string): Promise<string> {
  const db = new pg.Client({ connectionString: team.rig.adminUrl });
  await db.connect();
  try {
    // The outbox names the customer it created; the form itself is sealed, so find it by the draft's outcome.
    const { rows } = await db.query<{ id: string }>(
      `SELECT customer_id AS id FROM vetted.team_outbox WHERE state = 'created' ORDER BY finished_at DESC LIMIT 1`,
    );
    expect(rows, `the customer of ${email}`).toHaveLength(1);
    return rows[0]!.id;
  } finally {
    await db.end();
  }
}

async function looks(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoAxeViolations(page, { screen: `${name} (${colorScheme})` });
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({
        path: `test-results/team-lead-view/${name}-${width}x${height}-${colorScheme}.png`,
        fullPage: true,
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('a lead watches the team on the Team screen; a reviewer is told it is a lead’s', async ({ browser }) => {
  test.setTimeout(180_000);
  const deskA = await runBrowserMode({
    port: 0,
    dataDir: await team.rig.deskDir('alice'),
    writeLog: () => {},
  });
  const deskB = await runBrowserMode({ port: 0, dataDir: await team.rig.deskDir('bob'), writeLog: () => {} });
  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  const bob = team.rig.reviewers.bob.login;
  try {
    await a.goto(deskA.launchUrl);
    await b.goto(deskB.launchUrl);

    // Bob, a reviewer: no Team in his navigation; reached by its address, the screen says why.
    await expect(navigation(b).getByRole('button', { name: 'Audit' })).toBeVisible();
    await expect(navigation(b).getByRole('button', { name: 'Team' })).toHaveCount(0);
    await b.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/team';
    });
    await expect(teamScreen(b).getByText('The Team screen is a lead’s')).toBeVisible();
    await expect(teamScreen(b)).toContainText('Only a lead can see the Team screen');
    await looks(b, 'team-reviewer');

    // Alice, a lead: Team in her navigation; both desks online.
    await navigation(a).getByRole('button', { name: 'Team' }).click();
    await expect(navigation(a).getByRole('button', { name: 'Team' })).toHaveAttribute('aria-current', 'page');
    const online = teamScreen(a).getByRole('list', { name: 'Online now' });
    await expect(
      online.getByRole('listitem').filter({ hasText: team.rig.reviewers.alice.login }),
    ).toContainText('(you)');
    await expect(online.getByRole('listitem').filter({ hasText: bob })).toBeVisible({ timeout: 20_000 });
    await expect(reviewerRow(a, bob).getByRole('cell').nth(1)).toHaveText('Online');
    await expect(reviewerRow(a, bob).getByRole('cell').nth(2)).toHaveText('0');

    // Bob submits a customer and takes the case on his desk: Alice's screen follows, live.
    const who = person('retry', 'Overseen');
    await createThroughDraft(b, who, 'Needs retry');
    const customerId = await customerIdOf(who.email);
    await deskB.desk.handlers['claims.take']({ customerId }, { host: 'browser' });
    await expect(reviewerRow(a, bob).getByRole('cell').nth(2)).toHaveText('1', { timeout: 20_000 });

    // His note is the case's first action in "Needs retry".
    await b.getByRole('button', { name: 'Write a note' }).click();
    await b.getByRole('dialog', { name: 'Write a note' }).getByLabel('Note').fill('Asked for the right SSN.');
    await b.getByRole('button', { name: 'Save note' }).click();
    await expect(b.getByText('Note saved.')).toBeVisible();
    const sections = teamScreen(a).getByRole('table', { name: /Time to first action/ });
    const retry = sections.getByRole('row', { name: /Needs retry/ });
    await expect(retry.getByRole('cell').first()).toHaveText('1', { timeout: 20_000 });
    await expect(retry.getByRole('cell').nth(1)).toContainText('< 1 min');

    // Her trends, counted by the team store (#39): switched to 7 days, today's backlog holds Bob's case.
    const trends = teamScreen(a).getByRole('region', { name: 'Trends' });
    await trends.getByRole('radio', { name: '7 days' }).check();
    const backlog = trends.getByRole('region', { name: 'Backlog by section' });
    await backlog.getByText('Show as table').click();
    const days = backlog.getByRole('table', { name: /^Backlog by section/ }).getByRole('row');
    await expect(days).toHaveCount(8);
    await expect(days.last().getByRole('cell').first()).toHaveText('1');
    await looks(a, 'team-lead');

    // The period report (#39): this week's figures as CSV, saved by the browser, Bob's case among them; then
    // as a PDF, the trends' charts drawn from the same store.
    await test.step('the period report', async () => {
      const report = teamScreen(a).getByRole('region', { name: 'Period report' });
      await report.getByLabel('Format').selectOption('csv');
      const [download] = await Promise.all([
        a.waitForEvent('download'),
        report.getByRole('button', { name: 'Make the period report' }).click(),
      ]);
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv.split('\r\n')[0]).toBe('period_from,period_to,figure,section,reviewer,item,value');
      expect(csv).toMatch(/,opened,retry,[^,]*,,1\r\n/);
      await expect(report.getByRole('status')).toHaveText(/Saved the report: \d+ rows\./);
      await report.getByLabel('Format').selectOption('pdf');
      const [pdf] = await Promise.all([
        a.waitForEvent('download'),
        report.getByRole('button', { name: 'Make the period report' }).click(),
      ]);
      expect((await readFile(await pdf.path())).subarray(0, 5).toString()).toBe('%PDF-');
      await expect(report.getByRole('status')).toHaveText(/Saved the report: \d+ pages\./);
    });
  } finally {
    await a.context().close();
    await b.context().close();
    await deskA.close();
    await deskB.close();
  }
});
