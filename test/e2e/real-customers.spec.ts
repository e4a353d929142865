import type { Page } from '@playwright/test';
import { realShape, realShapedSandbox } from '../support/desk/real-shaped-service.ts';
import { expect, test } from './support/queue-fixtures.ts';
import { caseRow } from './support/queue-helpers.ts';

/** Customers as today's real service returns them: new statuses, extra fields, actions by its links. */

const ADDRESS = '4417 Quillfeather Crescent';
const shape = realShape({
  address1: ADDRESS,
  city: 'Brambleton Hollow',
  phone: '8025550199',
  loyaltyTier: 'Gold-7',
});
test.use({ builtInService: { start: realShapedSandbox(shape) } });

async function add(page: Page, id: string) {
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add customer' });
  await dialog.getByLabel('Customer ID or URL').fill(id);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

const open = (page: Page, name: RegExp) => caseRow(page, name).click();

test('a kba customer says what to do, keeps the service’s extra fields masked, and offers no action', async ({
  page,
  app,
}) => {
  const kba = await app.sandbox.createCustomer('Kay', 'Questions');
  shape.status.set(kba.id, 'kba');
  const withheld = await app.sandbox.createCustomer('retry', 'Withheld');
  shape.withhold.set(withheld.id, ['retry-verification']);
  await page.goto(app.launchUrl);

  await add(page, kba.id);
  const sections = page.getByRole('navigation', { name: 'Sections' });
  await expect(sections.getByRole('button', { name: /^Knowledge-based questions/ })).toHaveAccessibleName(
    'Knowledge-based questions 1',
  );
  await open(page, /Kay Questions/);
  await expect(
    page.getByText(/customer must answer knowledge-based questions in the service’s own flow/),
  ).toBeVisible();
  const retry = page.getByRole('button', { name: 'Retry verification' });
  await expect(retry).toBeDisabled();
  await expect(retry).toHaveAccessibleDescription(/knowledge-based questions/);

  const personal = page.getByRole('region', { name: 'Personal data' });
  await expect(personal).toContainText('Address line 1');
  await expect(personal).toContainText('loyaltyTier');
  await expect(personal).toContainText('Hidden');
  await expect(page.locator('body')).not.toContainText(ADDRESS);
  await personal.getByRole('button', { name: 'Reveal personal data…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
  await dialog.getByLabel('Reason').fill('Checking the address the service holds');
  await dialog.getByRole('button', { name: 'Reveal' }).click();
  await expect(personal).toContainText(ADDRESS);
  await expect(personal).toContainText('Gold-7');

  await page.getByRole('button', { name: 'Back to queue' }).click();
  await add(page, withheld.id);
  await open(page, /retry Withheld/);
  await expect(page.getByRole('button', { name: 'Retry verification' })).toHaveAccessibleDescription(
    'The service does not offer a retry for this customer right now.',
  );
});
