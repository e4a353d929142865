// Four eyes end to end (#28): two browser-mode desks on one team. Bob (a reviewer) prepares the one-time
// retry; it waits for approval, on his case and in Alice's queue, live. Alice (a lead) opens it from the
// queue's "Waiting for approval", reads what will be sent (the SSN masked: checked against the document, never shown),
// approves it with a note, and it is sent; Bob's case says so. Axe finds nothing, in light and dark.
import type { Page } from '@playwright/test';
import { runBrowserMode } from '#main/hosts/browser/main.ts';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { createThroughDraft, fillPerson, person, textbox } from './support/drafts-helpers.ts';
import { teamWithALead } from './support/team-with-a-lead.ts';

const SSN = '123-45-6789';
const SHOTS = 'test-results/four-eyes';
const team = teamWithALead('vetted_four_eyes_e2e');

async function openDesk(who: 'alice' | 'bob') {
  return runBrowserMode({ port: 0, dataDir: await team.rig.deskDir(who), writeLog: () => undefined });
}

const fourEyes = (page: Page) => page.getByRole('region', { name: 'Four eyes' });

test('a retry waits for a second pair of eyes, then leaves once approved', async ({ browser }) => {
  test.setTimeout(180_000);
  const deskA = await openDesk('alice');
  const deskB = await openDesk('bob');
  const a = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const b = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  try {
    await a.goto(deskA.launchUrl);
    await b.goto(deskB.launchUrl);
    // Alice, a lead, turns four eyes on for retries in Settings → Team; Bob reads the setting, not his to change.
    await a.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    const retryNeedsApproval = a.getByRole('checkbox', {
      name: 'The one-time retry (it carries the full SSN)',
    });
    await retryNeedsApproval.check();
    await a.getByRole('button', { name: 'Save team settings' }).click();
    await expect(a.getByText('Team settings saved.')).toBeVisible();
    await a.locator('section.team-settings').scrollIntoViewIfNeeded();
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await a.setViewportSize(size);
        await a.emulateMedia({ colorScheme });
        await a.locator('section.team-settings').scrollIntoViewIfNeeded();
        await a.screenshot({
          path: `${SHOTS}/settings-team-lead-${size.width}x${size.height}-${colorScheme}.png`,
        });
      }
    }
    await a.setViewportSize({ width: 1280, height: 800 });
    await a.emulateMedia({ colorScheme: 'light' });
    await expectNoAxeViolations(a, { include: 'section.team', screen: 'Settings → Team: four eyes (lead)' });
    await b.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
    await expect(
      b.getByRole('checkbox', { name: 'The one-time retry (it carries the full SSN)' }),
    ).toBeChecked();
    await expect(
      b.getByRole('checkbox', { name: 'The one-time retry (it carries the full SSN)' }),
    ).toBeDisabled();
    await a.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
    await b.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();

    // Bob prepares the retry: it waits, nothing is sent.
    const who = person('retry', 'Quennell');
    const name = `${who.firstName} ${who.lastName}`;
    await createThroughDraft(b, who, 'Needs retry');
    await b.getByRole('button', { name: 'Retry verification' }).click();
    const dialog = b.getByRole('dialog', { name: 'Retry verification' });
    if ((await textbox(dialog, 'First name').inputValue()) === '') await fillPerson(dialog, who);
    await dialog.getByLabel('Social Security number').fill(SSN);
    await dialog.getByRole('button', { name: 'Send retry…' }).click();
    await dialog.getByRole('button', { name: 'Send the retry' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Waiting for approval. Nothing has been sent yet.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(fourEyes(b).getByText('Waiting for approval', { exact: true })).toBeVisible();
    await expect(fourEyes(b).getByRole('button', { name: 'Withdraw request' })).toBeVisible();
    await expect(b.getByRole('region', { name: 'Case' }).getByText(/^Needs retry for/)).toBeVisible();

    // Alice sees it in the queue's own section, live, and opens the case from there.
    await a.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
    const waiting = a.getByRole('region', { name: /^Waiting for approval/ });
    await expect(waiting).toBeVisible({ timeout: 20_000 });
    await waiting.getByRole('button', { name: /^One-time retry by / }).click();
    await expect(a.getByRole('heading', { level: 2, name })).toBeVisible();
    const panel = fourEyes(a);
    const sent = panel.getByRole('definition');
    await expect(sent.filter({ hasText: '•••-••-6789' })).toBeVisible();
    await expect(panel).not.toContainText(SSN);

    await expectNoAxeViolations(a, { screen: 'Four eyes: the checker’s panel and the queue section' });
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
    ]) {
      for (const colorScheme of ['light', 'dark'] as const) {
        await a.setViewportSize(size);
        await a.emulateMedia({ colorScheme });
        await panel.scrollIntoViewIfNeeded();
        await a.screenshot({ path: `${SHOTS}/checker-${size.width}x${size.height}-${colorScheme}.png` });
        await b.setViewportSize(size);
        await b.emulateMedia({ colorScheme });
        await b.screenshot({ path: `${SHOTS}/maker-${size.width}x${size.height}-${colorScheme}.png` });
      }
    }
    // The case as a reviewer opens it, from its top: scrolled to the panel, the case's toolbar sits half under
    // the pane's sticky header, which axe's target-size counts against a button a scroll would reveal.
    await a
      .getByRole('button', { name: 'Write a note' })
      .evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await a.emulateMedia({ colorScheme: 'dark' });
    await expectNoAxeViolations(a, { screen: 'Four eyes: the checker’s panel (dark)' });
    await a.emulateMedia({ colorScheme: 'light' });

    // The SSN is compared with the document, never shown; then the approval, with a note.
    await panel.getByRole('button', { name: 'Check SSN…' }).click();
    const check = a.getByRole('dialog', { name: 'Check the SSN against the document' });
    await check.getByLabel('SSN on the document').fill(SSN);
    await check.getByRole('button', { name: 'Check' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'is the one that will be sent' })).toBeVisible();
    await expect(panel).not.toContainText(SSN);
    await panel.getByRole('button', { name: 'Approve and send…' }).click();
    const approve = a.getByRole('dialog', { name: 'Approve and send' });
    await expectNoAxeViolations(a, { include: 'dialog[open]', screen: 'Four eyes: approve dialog' });
    await approve.getByLabel('Note').fill('Matches the passport.');
    await approve.getByRole('button', { name: 'Approve and send' }).click();
    await expect(panel.getByText('Approved and sent', { exact: true })).toBeVisible();
    await expect(waiting).toHaveCount(0);

    // Bob's case follows: approved, sent, verified; the timeline has every step.
    await expect(fourEyes(b).getByText('Approved and sent', { exact: true })).toBeVisible({
      timeout: 20_000,
    });
    await expect(fourEyes(b)).toContainText('Matches the passport.');
    const timeline = b.getByRole('region', { name: 'Timeline' });
    await expect(timeline.getByText('Waiting for approval (four eyes)')).toBeVisible();
    await expect(timeline.getByText('Approved (four eyes)')).toBeVisible();
    await expect(timeline.getByText('Approved action sent')).toBeVisible();
  } finally {
    await a.context().close();
    await b.context().close();
    await deskA.close();
    await deskB.close();
  }
});
