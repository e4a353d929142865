import type { Page } from '@playwright/test';
import { fillPerson, person, startNewCustomer } from './drafts-helpers.ts';
import { expect, test } from './queue-fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';

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
      await expect(page.getByRole('option', { name: /document Axelsen/ })).toBeVisible();
      await expectNoAxeViolations(page, { screen: 'the queue' });

      await page.getByRole('option', { name: /document Axelsen/ }).click();
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
