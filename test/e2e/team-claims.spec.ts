// Claims and roles on two browser-mode desks of one team (#28), as the reviewers see them: Alice (a lead) takes
// a case and Bob's desk shows "alice has this" live, its Retry and Upload refused in words; the sections Mine,
// Unclaimed and by reviewer count right; the lead reassigns with a note and takes over with a reason, and Bob
// is told by a toast; Bob (a reviewer) sees no Reassign and reads why; the next-case key; the case's link;
// what only a lead may do hidden from Bob with the reason; axe on each screen state. Screenshots of the queue
// and the case header at both laptop sizes, light and dark, go to the test's output directory to look at.
import type { Locator, Page } from '@playwright/test';
import pg from 'pg';
import { setReviewerRole } from '#admin/roles.ts';
import { claimedByWords } from '#contract/claims.ts';
import { ASK_A_LEAD, LEAD_ONLY } from '#contract/roles.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { samplePerson } from '../support/person.ts';
import { type PgCluster, startPgCluster } from '../support/postgres/pg-cluster.ts';
import { startTeamRig, type TeamRig } from '../support/team/team-rig.ts';
import { expect, type PageGlobals, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { copied, recordClipboard } from './support/clipboard.ts';
import { uploadPassportFromDesk } from './support/documents-helpers.ts';
import { caseRow, caseRows, section } from './support/queue-helpers.ts';

let cluster: PgCluster;
let rig: TeamRig;
let alice: string;
let bob: string;
/** Three customers in "Needs retry", made in this order: the first has waited longest. */
const LAST_NAMES = ['Okafor', 'Brandt', 'Salo'] as const;
const ids: Record<string, string> = {};

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPgCluster();
  rig = await startTeamRig(await cluster.createDatabase('vetted_team_claims_e2e'));
  alice = rig.reviewers.alice.login;
  bob = rig.reviewers.bob.login;
  // The administrator makes Alice a lead (set-role, sealed into the audit chain with the team key).
  const admin = new pg.Client({ connectionString: rig.adminUrl });
  await admin.connect();
  try {
    await setReviewerRole(admin, { name: alice, role: 'lead', keyFile: rig.keyFile });
  } finally {
    await admin.end();
  }
  for (const [i, lastName] of LAST_NAMES.entries()) {
    ids[lastName] = await makeCustomer('retry', lastName, `claims-e2e-${i}@example.com`);
  }
});

/** A customer made on the service by someone other than the desks (the team learns of it by webhook too). */
async function makeCustomer(firstName: string, lastName: string, email: string): Promise<string> {
  const service = createServiceClient({
    baseUrl: rig.sandbox.baseUrl,
    clientId: rig.sandbox.clientId,
    clientSecret: rig.sandbox.clientSecret,
  });
  try {
    return (await service.customers.create(samplePerson(firstName, lastName, email))).id;
  } finally {
    await service.close();
  }
}

test.afterAll(async () => {
  await rig?.close();
  await cluster?.stop();
});

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const nav = (page: Page, name: 'Queue' | 'Settings') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const holderOf = (page: Page) => page.getByRole('region', { name: 'Who has this case' });
const casePane = (page: Page) => page.getByRole('region', { name: 'Case' });
const toasts = (page: Page) => page.getByRole('status', { name: 'Notifications' });
/** A "Who has it" toggle by its accessible name: its title, its count and what it counts. */
const tally = (page: Page, title: string, count: number, unit: 'held' | 'waiting') =>
  expect(section(page, literal(title))).toHaveAccessibleName(
    new RegExp(`^${literal(title)} ${count} ${unit}`),
  );

/** Adds a customer the service has, through the desk's own bridge (what "Add customer" calls). */
async function addOnDesk(page: Page, id: string): Promise<void> {
  const result = await page.evaluate((ref) => (globalThis as PageGlobals).vetted?.customers.add({ ref }), id);
  expect(result?.ok, JSON.stringify(result)).toBe(true);
}

/** The page at both laptop sizes, light and dark, saved to look at (not compared: names and times vary). */
async function look(page: Page, name: string): Promise<void> {
  for (const size of [
    { width: 1280, height: 800 },
    { width: 1440, height: 900 },
  ]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
      await page.mouse.move(2, 2);
      await page.screenshot({
        path: test.info().outputPath(`${name}-${size.width}x${size.height}-${colorScheme}.png`),
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe on the page as it is, light and dark. */
async function axeBoth(page: Page, screen: string, include?: string): Promise<void> {
  await expectNoAxeViolations(page, { screen, ...(include ? { include } : {}) });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, { screen: `${screen} (dark)`, ...(include ? { include } : {}) });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function expectRefusedInWords(pane: Locator, words: RegExp): Promise<void> {
  for (const name of ['Retry verification', 'Upload documents']) {
    const button = pane.getByRole('button', { name });
    await expect(button).toHaveAttribute('aria-disabled', 'true');
    await expect(button).toHaveAccessibleDescription(words);
  }
}

test('claims and roles on two desks: take, live badge, refusals, sections, reassign, take over, next key, link', async ({
  browser,
}) => {
  // Two desks, a hub and a sandbox on a loaded 2-core machine, axe in both schemes at every state, 16 screenshots.
  test.setTimeout(480_000);
  const deskA = await runBrowserMode({
    port: 0,
    dataDir: await rig.deskDir('alice'),
    writeLog: () => undefined,
  });
  const deskB = await runBrowserMode({
    port: 0,
    dataDir: await rig.deskDir('bob'),
    writeLog: () => undefined,
  });
  const viewport = { width: 1280, height: 800 };
  const a = await (await browser.newContext({ viewport })).newPage();
  await recordClipboard(a);
  const b = await (await browser.newContext({ viewport })).newPage();
  try {
    await a.goto(deskA.launchUrl);
    await b.goto(deskB.launchUrl);
    for (const lastName of LAST_NAMES) await addOnDesk(a, ids[lastName] as string);
    for (const page of [a, b]) {
      for (const lastName of LAST_NAMES)
        await expect(caseRow(page, lastName)).toBeVisible({ timeout: 20_000 });
    }

    // Nobody holds anything yet: three cases wait unclaimed; Alice's and Bob's toggles count none.
    await tally(a, 'Unclaimed', 3, 'waiting');
    await tally(a, 'Mine', 0, 'held');
    await tally(a, bob, 0, 'held');
    // The hubs' logins (added by add-hub) are no people: never offered under "Who has it".
    const whoHasIt = a.getByRole('list', { name: 'Who has it' });
    await expect(whoHasIt.getByRole('button')).toHaveCount(3);
    await expect(whoHasIt).not.toContainText(rig.reviewers.hub.login);

    // Alice opens Okafor and takes it: her header says so, Bob's queue row says so, live.
    await caseRow(a, 'Okafor').click();
    await expect(holderOf(a)).toContainText('Nobody has this case yet.');
    await holderOf(a).getByRole('button', { name: 'Take', exact: true }).click();
    await expect(holderOf(a)).toContainText(/You have this since/);
    await expect(caseRow(a, 'Okafor')).toContainText('You have this');
    await expect(caseRow(b, 'Okafor')).toContainText(`${alice} has this`);
    await tally(a, 'Mine', 1, 'held');
    await tally(a, 'Unclaimed', 2, 'waiting');
    await tally(b, alice, 1, 'held');
    await tally(b, 'Mine', 0, 'held');

    // The toggles narrow the list: Mine, then Unclaimed, then everyone's again.
    await section(a, 'Mine').click();
    await expect(caseRows(a)).toHaveCount(1);
    await expect(caseRow(a, 'Okafor')).toBeVisible();
    await section(a, 'Unclaimed').click();
    await expect(caseRows(a)).toHaveCount(2);
    await expect(caseRow(a, 'Okafor')).toHaveCount(0);
    await section(a, 'Unclaimed').click();
    await expect(caseRows(a)).toHaveCount(3);
    await axeBoth(a, 'Team queue with a claim (lead)');
    await look(a, 'queue-lead-holds-a-case');

    // Bob opens it: who holds it, no lead's buttons and why, Retry and Upload refused in words.
    await caseRow(b, 'Okafor').click();
    await expect(holderOf(b)).toContainText(`${alice} has this since`);
    for (const name of [/^Take/, /^Reassign/, /^Release/]) {
      await expect(holderOf(b).getByRole('button', { name })).toHaveCount(0);
    }
    await expect(holderOf(b)).toContainText(LEAD_ONLY.reassign);
    await expect(holderOf(b)).toContainText(LEAD_ONLY.takeOver);
    await expect(holderOf(b)).toContainText(ASK_A_LEAD);
    const refused = new RegExp(`^${literal(claimedByWords(alice))}`);
    // The next step says what is left to Bob, not what the status would ask of the holder.
    const step = casePane(b).getByRole('region', { name: 'Next step' });
    await expect(step).toContainText(`Leave this case to ${alice}, or ask for it`);
    await expect(step.getByRole('button', { name: 'Write a note' })).toBeVisible();
    await expect(casePane(b).getByText(claimedByWords(alice))).toHaveCount(1);
    await expectRefusedInWords(casePane(b), refused);
    // The key says it too, rather than opening the form.
    await casePane(b).getByRole('heading', { level: 2 }).focus();
    await b.keyboard.press('r');
    await expect(casePane(b).getByRole('status').filter({ hasText: refused })).toBeVisible();
    await axeBoth(b, 'Case another reviewer holds (reviewer)');
    await look(b, 'case-held-by-another-reviewer');

    // What only a lead may do is not offered to Bob, and he reads why where he looks for it.
    await expect(b.getByRole('button', { name: 'Export with names…' })).toHaveCount(0);
    await expect(b.getByText('With names: leads only')).toBeVisible();
    await expect(b.getByText(`${LEAD_ONLY.exportNames} ${ASK_A_LEAD}`)).toBeAttached();
    await expect(a.getByRole('button', { name: 'Export with names…' })).toBeVisible();

    // Alice, a lead, reassigns Okafor to Bob with a note; Bob is told by a toast and now holds it.
    await holderOf(a).getByRole('button', { name: 'Reassign…' }).click();
    const reassign = a.getByRole('dialog', { name: 'Reassign the case' });
    await reassign.getByRole('button', { name: 'Reassign', exact: true }).click();
    await expect(reassign.getByText('Choose who gets the case.')).toBeVisible();
    // Whom a lead may give the case to: the team's people, never a hub.
    const options = await reassign.getByLabel('Reviewer').locator('option').allTextContents();
    expect(options.filter((option) => option.startsWith('hub'))).toEqual([]);
    expect(options).toContain(bob);
    await reassign.getByLabel('Reviewer').selectOption(bob);
    await reassign.getByLabel('Note').fill('Bob knows this customer.');
    await axeBoth(a, 'Reassign dialog', 'dialog[open]');
    await reassign.getByRole('button', { name: 'Reassign', exact: true }).click();
    await expect(reassign).toBeHidden();
    await expect(holderOf(a)).toContainText(`${bob} has this since`);
    await expect(holderOf(a)).toContainText(`Reassigned by ${alice}: Bob knows this customer.`);
    await expect(toasts(b)).toContainText('Case assigned to you');
    await expect(toasts(b)).toContainText('Bob knows this customer.');
    await expect(holderOf(b)).toContainText('You have this since');
    await expect(casePane(b).getByRole('button', { name: 'Retry verification' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(caseRow(b, 'Okafor')).toContainText('You have this');
    await tally(b, 'Mine', 1, 'held');
    await axeBoth(b, 'Case reassigned to the reviewer, with its toast');
    await b.getByRole('button', { name: /^Dismiss: Case assigned to you/ }).click();

    // Bob's one key takes the unclaimed case that waited longest (Brandt) and opens it, its heading focused.
    await b.keyboard.press('Escape');
    await b.keyboard.press('g');
    await expect(casePane(b).getByRole('heading', { level: 2, name: /Brandt/ })).toBeFocused();
    await expect(holderOf(b)).toContainText('You have this since');
    await tally(b, 'Mine', 2, 'held');
    await tally(b, 'Unclaimed', 1, 'waiting');
    await tally(a, bob, 2, 'held');
    await b.keyboard.press('?');
    const help = b.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(help).toContainText('Take the next unclaimed case and open it');
    await b.keyboard.press('Escape');
    await expect(help).toBeHidden();
    await look(b, 'case-mine-after-next-key');

    // Alice takes Brandt over with a reason; Bob is told who and why.
    await caseRow(a, 'Brandt').click();
    await expect(holderOf(a)).toContainText(`${bob} has this since`);
    await holderOf(a).getByRole('button', { name: 'Take over…' }).click();
    const takeOver = a.getByRole('dialog', { name: `Take over the case from ${bob}` });
    await takeOver.getByLabel('Reason').fill('The customer called me directly.');
    await takeOver.getByRole('button', { name: 'Take over', exact: true }).click();
    await expect(holderOf(a)).toContainText('You have this since');
    await expect(toasts(b)).toContainText(`${alice} took over a case you held.`);
    await expect(caseRow(b, 'Brandt')).toContainText(`${alice} has this`);
    await look(a, 'case-lead-took-over');

    // The case's link: vetted://case/<id> on the clipboard, and this desk's own address shown.
    await holderOf(a).getByRole('button', { name: 'Copy link' }).click();
    await expect(casePane(a).getByText('Link copied.')).toBeVisible();
    await expect.poll(() => copied(a)).toBe(`vetted://case/${ids.Brandt}`);
    await expect(holderOf(a)).toContainText(`/#/case/${ids.Brandt}`);
    await axeBoth(a, 'Case the lead took over, its link copied');

    // Settings → Team: the claim idle time, changed by the lead, read-only for Bob with the reason.
    await nav(b, 'Settings');
    const idleB = b.getByRole('spinbutton', { name: 'Claim idle time (minutes)' });
    await expect(idleB).toHaveValue('30');
    await expect(idleB).not.toBeEditable();
    await expect(b.getByText(LEAD_ONLY.changeTeamSettings)).toBeVisible();
    await expect(b.getByRole('button', { name: 'Save team settings' })).toHaveCount(0);
    await axeBoth(b, 'Settings → Team (reviewer)', 'section.team');
    await nav(a, 'Settings');
    const idleA = a.getByRole('spinbutton', { name: 'Claim idle time (minutes)' });
    await idleA.fill('45');
    await a.getByRole('button', { name: 'Save team settings' }).click();
    await expect(a.getByText('Team settings saved.')).toBeVisible();
    await nav(b, 'Queue');
    await nav(b, 'Settings');
    await expect(b.getByRole('spinbutton', { name: 'Claim idle time (minutes)' })).toHaveValue('45');
    await axeBoth(a, 'Settings → Team (lead)', 'section.team');

    // Bob sends a document from his desk: the first action takes the case for him, and the image it keeps
    // is his to look at but only a lead's to remove, which he reads where the button would be.
    await nav(b, 'Queue');
    const ueda = await makeCustomer('document', 'Ueda', 'claims-e2e-doc@example.com');
    await addOnDesk(b, ueda);
    await uploadPassportFromDesk(b, ueda);
    // Opened by its address, as a case link opens it in browser mode.
    await b.goto(new URL(`#/case/${ueda}`, b.url()).toString());
    await expect(casePane(b).getByRole('heading', { level: 2, name: /Ueda/ })).toBeVisible();
    await expect(holderOf(b)).toContainText('You have this since');
    const images = b.getByRole('region', { name: 'Documents sent from this desk' });
    await expect(images.getByRole('button', { name: /^View Passport, uploaded/ })).toBeVisible();
    await expect(images.getByRole('button', { name: 'Remove stored image' })).toHaveCount(0);
    await expect(images).toContainText(`${LEAD_ONLY.purgeImages} ${ASK_A_LEAD}`);
    await axeBoth(b, 'Stored image on a reviewer’s desk', 'section.case-section');
  } finally {
    await a.context().close();
    await b.context().close();
    await deskA.close();
    await deskB.close();
  }
});
