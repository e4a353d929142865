import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe.ts';
import { uploadPassportFromDesk } from './support/documents-helpers.ts';
import { fillPerson, person, startNewCustomer } from './support/drafts-helpers.ts';
import { expect, test } from './support/queue-fixtures.ts';
import { caseRow, grid, section } from './support/queue-helpers.ts';

/**
 * axe-core on every screen, in the light and the dark colour scheme: 0 violations. Each screen is
 * checked once it shows what it is for (a web-first assertion first), with content in it.
 */

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} colour scheme`, () => {
    test.use({ colorScheme });

    test('every screen has no axe violations', async ({ page, app }) => {
      // Eight screens, each analysed in full: a minute is short for that on a loaded 2-core machine.
      test.setTimeout(240_000);
      await app.sandbox.createCustomer('document', 'Axelsen');
      await app.sandbox.createCustomer('retry', 'Bell');
      await page.goto(app.launchUrl);

      await page.getByRole('button', { name: 'Import from service' }).click();
      await expect(caseRow(page, 'document Axelsen')).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the queue' });

      await caseRow(page, 'document Axelsen').click();
      await expect(page.getByRole('heading', { level: 2, name: 'document Axelsen' })).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'a customer' });

      const form = await startNewCustomer(page);
      await fillPerson(form, person('Ada', 'Axe'));
      await expect(page.getByRole('complementary', { name: 'Drafts & outbox' })).toContainText('1 draft');
      await expectNoAxeViolations(page, { screen: 'a new customer and the outbox' });

      await nav(page, 'Events');
      const events = page.getByRole('table', { name: 'Events' });
      await expect(events.getByRole('row').filter({ hasText: 'Customer created' }).first()).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the events' });
      await events
        .getByRole('row')
        .filter({ hasText: 'Customer created' })
        .first()
        .getByRole('button')
        .first()
        .click();
      const detail = page.getByRole('dialog', { name: 'Customer created' });
      await expect(detail.getByRole('region', { name: 'Payload' })).toContainText(
        '"topic": "customer_created"',
      );
      await expectNoAxeViolations(page, { screen: 'an event’s detail' });
      await page.keyboard.press('Escape');

      await nav(page, 'Webhooks');
      await expect(page.getByRole('region', { name: 'Subscriptions' }).getByRole('row').nth(1)).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the webhooks' });

      await nav(page, 'Settings');
      await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the settings' });

      await nav(page, 'Sandbox');
      await expect(page.getByRole('region', { name: 'curl command' })).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the sandbox panel' });
    });

    test('the split view with a case open, its note dialog, document viewer and the Audit screen have no axe violations', async ({
      page,
      app,
    }) => {
      // Five full analyses on a loaded 2-core machine, as the every-screen test above.
      test.setTimeout(240_000);
      const { id } = await app.sandbox.createCustomer('document', 'Carrow');
      await app.sandbox.createCustomer('retry', 'Dunne');
      // Enough cases that the queue's grid scrolls: a scroller the keyboard must reach (scrollable-region-focusable).
      await Promise.all(
        Array.from({ length: 16 }, (_, i) => app.sandbox.createCustomer('Axel', `Scroll${i}`)),
      );
      await page.goto(app.launchUrl);
      await page.getByRole('button', { name: 'Import from service' }).click();
      await expect(section(page, 'All')).toHaveAccessibleName('All 18');
      await expect
        .poll(() => grid(page).evaluate((element) => element.scrollHeight > element.clientHeight))
        .toBe(true);
      await caseRow(page, 'document Carrow').click();
      await expect(page.getByRole('heading', { level: 2, name: 'document Carrow' })).toBeVisible();
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByRole('listitem').first()).toBeVisible();
      // A document sent from this desk: the case then shows its thumbnail, and the viewer opens.
      await uploadPassportFromDesk(page, id);
      const thumbnail = page
        .getByRole('region', { name: 'Documents sent from this desk' })
        .getByRole('button', { name: /^View Passport, uploaded/ });
      await expect(thumbnail).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the split view, a case with its timeline' });

      await thumbnail.click();
      const viewer = page.getByRole('dialog', { name: /^Passport, uploaded/ });
      await expect(viewer.getByRole('button', { name: 'Zoom in (+)' })).toBeFocused();
      await expectNoAxeViolations(page, { screen: 'the document viewer' });
      await page.keyboard.press('Escape');
      await expect(viewer).toBeHidden();

      await page.getByRole('button', { name: 'Write a note' }).click();
      const dialog = page.getByRole('dialog', { name: 'Write a note' });
      await dialog.getByLabel('Note').fill('Passport photo is sharp; waiting for the review.');
      await expect(dialog.getByText(/of 4,000 characters/)).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the note dialog' });
      await dialog.getByRole('button', { name: 'Save note' }).click();
      await expect(
        timeline.getByRole('listitem').filter({ hasText: 'Passport photo is sharp' }),
      ).toBeVisible();

      await nav(page, 'Audit');
      await expect(
        page.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: 'Note written' }),
      ).toHaveCount(1);
      await expectNoAxeViolations(page, { screen: 'the Audit screen' });
    });

    test('the unlock screen has no axe violations, a refusal shown', async ({ page, app }) => {
      // Browser mode's vault is a key file and never locked: the unlock screen Electron shows without a
      // keyring is the same renderer, given main's answers for a locked vault.
      const answer = (value: unknown) => ({ contentType: 'application/json', body: JSON.stringify(value) });
      await page.route('**/api/invoke/vault.status', (route) =>
        route.fulfill(
          answer({
            ok: true,
            value: {
              state: 'locked',
              reason: 'This computer has no keyring: your passphrase protects Vetted’s secrets.',
            },
          }),
        ),
      );
      await page.route('**/api/invoke/vault.unlock', (route) =>
        route.fulfill(
          answer({
            ok: false,
            error: { code: 'WrongPassphrase', message: 'That passphrase is not the right one.' },
          }),
        ),
      );
      await page.goto(app.launchUrl);
      const unlock = page.getByRole('form', { name: 'Unlock Vetted' });
      await expect(unlock.getByLabel('Passphrase')).toBeFocused();
      await expectNoAxeViolations(page, { screen: 'the unlock screen' });
      await unlock.getByLabel('Passphrase').fill('not the passphrase');
      await unlock.getByRole('button', { name: 'Unlock' }).click();
      await expect(unlock.getByRole('alert')).toContainText('not the right one');
      await expectNoAxeViolations(page, { screen: 'the unlock screen, refused' });
    });
  });
}
