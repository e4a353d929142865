import type { Locator, Page } from '@playwright/test';
import { createThroughDraft, person, textbox } from './support/drafts-helpers.ts';
import { expect, test } from './support/queue-fixtures.ts';

/** The one retry of a customer in `retry`: pre-filled, the full SSN masked, confirmed, then never again. */

const retryDialog = (page: Page) => page.getByRole('dialog', { name: 'Retry verification' });
const retryButton = (page: Page) => page.getByRole('button', { name: 'Retry verification' });
const SSN = '123-45-6789';
const section = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${title}`) });

/** Opens the retry of a customer just created through a draft, types the full SSN, and leaves the form open. */
async function openRetry(page: Page, lastName: string) {
  const who = person('retry', lastName);
  await createThroughDraft(page, who, 'Needs retry');
  await retryButton(page).click();
  const dialog = retryDialog(page);
  await expect(textbox(dialog, 'First name')).toHaveValue('retry');
  await dialog.getByLabel('Social Security number').fill(SSN);
  return { who, dialog };
}

async function sendRetry(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Send retry…' }).click();
  await dialog.getByRole('button', { name: 'Send the retry' }).click();
}

test('a customer Vetted created gets its one retry, pre-filled, and a second one is refused', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  const who = person('retry', 'Reyes');
  await createThroughDraft(page, who, 'Needs retry');
  await expect(page.getByRole('region', { name: 'Case' }).getByText(/^Needs retry for/)).toBeVisible();

  await retryButton(page).click();
  const dialog = retryDialog(page);
  await expect(dialog).toContainText('One retry only');
  await expect(dialog).toContainText('Filled in from the draft that created this customer');
  await expect(textbox(dialog, 'First name')).toHaveValue('retry');
  await expect(textbox(dialog, 'Email')).toHaveValue(who.email);
  const ssn = dialog.getByLabel('Social Security number');
  await expect(ssn).toBeFocused();
  await expect(ssn).toHaveValue('');
  await expect(ssn).toHaveAttribute('type', 'password');

  // Only the last four digits were ever kept: the full number must be typed, whole.
  await ssn.fill('123-45-678');
  await dialog.getByRole('button', { name: 'Send retry…' }).click();
  await expect(ssn).toBeFocused();
  await expect(ssn).toHaveAttribute('aria-invalid', 'true');
  await expect(ssn).toHaveAccessibleDescription('Enter the full Social Security number as NNN-NN-NNNN.');
  await ssn.fill('123456789');
  await expect(ssn).toHaveValue(SSN);
  await expect(ssn).not.toHaveAttribute('aria-invalid');

  // Shown only while "Hold to reveal" is held, by pointer or by Space.
  const reveal = dialog.getByRole('button', { name: 'Hold to reveal' });
  await reveal.hover();
  await page.mouse.down();
  await expect(ssn).toHaveAttribute('type', 'text');
  await page.mouse.up();
  await expect(ssn).toHaveAttribute('type', 'password');
  await reveal.focus();
  await page.keyboard.down(' ');
  await expect(ssn).toHaveAttribute('type', 'text');
  await expect(reveal).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.up(' ');
  await expect(ssn).toHaveAttribute('type', 'password');

  await dialog.getByRole('button', { name: 'Send retry…' }).click();
  await expect(dialog).toContainText('Send the one retry for retry Reyes?');
  await dialog.getByRole('button', { name: 'Send the retry' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Retry sent. The customer is now verified.');
  // The full SSN went to main once and is gone from the page.
  await expect(dialog.getByLabel('Social Security number')).toHaveCount(0);
  expect(await page.content()).not.toContain(SSN);

  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Verified for/)).toBeVisible();
  await expect(retryButton(page)).toHaveAttribute('aria-disabled', 'true');
  await expect(retryButton(page)).toHaveAccessibleDescription(/.+/);
  // Pressed anyway (it stays focusable, to say why): nothing opens.
  await retryButton(page).click({ force: true });
  await expect(retryDialog(page)).toBeHidden();
});

test('a customer Vetted did not create starts empty, and a cancelled form leaves the retry unused', async ({
  page,
  app,
}) => {
  const { id } = await app.sandbox.createCustomer('retry', 'Santos');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Add customer' }).click();
  const add = page.getByRole('dialog', { name: 'Add customer' });
  await add.getByLabel('Customer ID or URL').fill(id);
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await page
    .getByRole('grid', { name: 'Customers' })
    .getByRole('row', { name: /retry Santos/ })
    .click();

  await retryButton(page).click();
  const dialog = retryDialog(page);
  await expect(dialog).toContainText('Vetted did not create this customer, so the form starts empty');
  await expect(textbox(dialog, 'First name')).toHaveValue('');
  await expect(textbox(dialog, 'First name')).toBeFocused();
  await dialog.getByRole('button', { name: 'Send retry…' }).click();
  await expect(textbox(dialog, 'First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Social Security number')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).not.toContainText('Send the one retry');

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(retryButton(page)).not.toHaveAttribute('aria-disabled');
});

test('a first name corrected in the retry form is what the service gets: the customer lands in Needs document', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  const { who, dialog } = await openRetry(page, 'Okafor');
  await textbox(dialog, 'First name').fill('document');
  await expect(textbox(dialog, 'First name')).toHaveValue('document');
  await sendRetry(dialog);
  await expect(dialog.getByRole('status')).toHaveText('Retry sent. The customer is now document.');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(/^Needs document for/)).toBeVisible();

  await page.getByRole('button', { name: 'Back to queue' }).click();
  await section(page, 'Needs document').click();
  await expect(
    page.getByRole('grid', { name: 'Customers' }).getByRole('row', { name: /document Okafor/ }),
  ).toBeVisible();
  expect(await app.sandbox.received(who.email)).toMatchObject({ firstName: 'document', status: 'document' });
});

test('an address corrected in the retry form is what the service receives', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  const { who, dialog } = await openRetry(page, 'Lindqvist');
  await textbox(dialog, 'Last name').fill('Lindqvist-Berg');
  await textbox(dialog, 'Address line 1').fill('22 Corrected Road');
  await textbox(dialog, 'Address line 2 (optional)').fill('Unit 5');
  await textbox(dialog, 'City').fill('Shelbyville');
  await dialog.getByRole('combobox', { name: 'State' }).selectOption('IN');
  await textbox(dialog, 'Postal code').fill('46176');
  await sendRetry(dialog);
  await expect(dialog.getByRole('status')).toHaveText('Retry sent. The customer is now verified.');

  expect(await app.sandbox.received(who.email)).toMatchObject({
    retried: true,
    lastName: 'Lindqvist-Berg',
    address1: '22 Corrected Road',
    address2: 'Unit 5',
    city: 'Shelbyville',
    state: 'IN',
    postalCode: '46176',
    dateOfBirth: who.dateOfBirth,
  });
});
