import type { Page } from '@playwright/test';
import { expect, test } from './support/queue-fixtures.ts';
import { caseRows, grid as list, caseRow as row, section, selectedRow } from './support/queue-helpers.ts';

/** The queue screen and the case panel, driven as a reviewer would, on the built-in sandbox. */

async function addCustomer(page: Page, ref: string) {
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add customer' });
  await dialog.getByLabel('Customer ID or URL').fill(ref);
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('imported customers land in their sections, with live counts', async ({ page, app }) => {
  await app.sandbox.createCustomer('retry', 'Abbott');
  await app.sandbox.createCustomer('document', 'Baker');
  await app.sandbox.createCustomer('suspended', 'Carter');
  await app.sandbox.createCustomer('Dana', 'Dale');
  await page.goto(app.launchUrl);

  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(4);
  // Webhooks may have told Vetted of some of them already: either way, all four are accounted for.
  const said = page.getByText(/^Imported from the service: \d new, \d already here\.$/);
  await expect(said).toBeVisible();
  const [added, known] = ((await said.textContent()) ?? '').match(/\d+/g)!.map(Number);
  expect(added! + known!).toBe(4);
  await expect(section(page, 'All')).toHaveAccessibleName('All 4');
  await expect(section(page, 'Needs retry')).toHaveAccessibleName('Needs retry 1');
  await expect(section(page, 'Needs document')).toHaveAccessibleName('Needs document 1');
  await expect(section(page, 'Suspended')).toHaveAccessibleName('Suspended 1');
  await expect(section(page, 'Verified')).toHaveAccessibleName('Verified 1');
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 0');

  await section(page, 'Needs retry').click();
  await expect(section(page, 'Needs retry')).toHaveAttribute('aria-pressed', 'true');
  await expect(caseRows(page)).toHaveCount(1);
  await expect(row(page, /retry Abbott/)).toContainText('Needs retry');

  await section(page, 'Verified').click();
  await expect(caseRows(page)).toHaveCount(1);
  await expect(row(page, /Dana Dale/)).toBeVisible();
});

test('a customer is added by its id, and a wrong id is refused in words', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('suspended', 'Evans');
  await page.goto(app.launchUrl);

  await addCustomer(page, id);
  await expect(row(page, /suspended Evans/)).toHaveAttribute('aria-selected', 'true');
  await expect(section(page, 'Suspended')).toHaveAccessibleName('Suspended 1');

  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add customer' });
  await dialog.getByLabel('Customer ID or URL').fill('not an id');
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(dialog.getByRole('alert')).not.toBeEmpty();
  await expect(dialog.getByLabel('Customer ID or URL')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('search narrows the queue as one types, and the selection survives a reload', async ({ page, app }) => {
  for (const [first, last] of [
    ['Fiona', 'Fisher'],
    ['Gina', 'Fisher'],
    ['retry', 'Green'],
  ] as const) {
    await app.sandbox.createCustomer(first, last);
  }
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(3);

  const search = page.getByRole('searchbox', { name: 'Search customers' });
  await search.fill('fisher');
  await expect(caseRows(page)).toHaveCount(2);
  await expect(section(page, 'Verified')).toHaveAccessibleName('Verified 2');
  await expect(section(page, 'Needs retry')).toHaveAccessibleName('Needs retry 0');
  await search.fill('gi');
  await expect(caseRows(page)).toHaveCount(1);
  await expect(row(page, /Gina Fisher/)).toBeVisible();
  await search.fill('retry.green');
  await expect(caseRows(page)).toHaveCount(1);
  await expect(row(page, /retry Green/)).toBeVisible();
  await search.fill('nobody-has-this-name');
  await expect(caseRows(page)).toHaveCount(0);
  await expect(page.getByText('No customers match')).toBeVisible();
  await search.fill('');
  await expect(caseRows(page)).toHaveCount(3);

  await row(page, /Gina Fisher/).click();
  await page.getByRole('button', { name: 'Back to queue' }).click();
  await expect(row(page, /Gina Fisher/)).toHaveAttribute('aria-selected', 'true');
  await page.reload();
  await expect(row(page, /Gina Fisher/)).toHaveAttribute('aria-selected', 'true');
});

test('the keyboard runs the queue: / searches, j/k and arrows move, Enter opens, Esc goes back, ? helps', async ({
  page,
  app,
}) => {
  for (const last of ['Hart', 'Irwin', 'Jones']) await app.sandbox.createCustomer('Kim', last);
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(3);
  const selected = selectedRow(page);

  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search customers' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(list(page)).toBeFocused();
  await expect(selected).toHaveCount(1);
  const first = (await selected.textContent()) ?? '';

  await page.keyboard.press('j');
  await expect(selected).not.toHaveText(first);
  await page.keyboard.press('k');
  await expect(selected).toHaveText(first);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(caseRows(page).nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(caseRows(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  const second = (await selected.textContent()) ?? '';
  const name = second.match(/^Kim \w+/)?.[0] ?? '';

  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();
  await expect(selected).toHaveText(second);

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toBeVisible();
  await expect(help).toContainText('Search customers');
  await expect(help).toContainText('Open the selected case');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  // Esc closed the overlay only: the queue is still there.
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();
});

test('a status change on the service moves the row without a reload', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('document', 'Lopez');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  await section(page, 'Needs document').click();
  await expect(row(page, /document Lopez/)).toBeVisible();

  await app.sandbox.uploadDocument(id);
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 1');
  await expect(caseRows(page)).toHaveCount(0);

  // The sandbox reviews the document a minute later on its own clock, and approves it.
  await app.sandbox.advanceClock(120);
  await expect(section(page, 'Verified')).toHaveAccessibleName('Verified 1');
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 0');
  await section(page, 'Verified').click();
  await expect(row(page, /document Lopez/)).toContainText('Verified');
});

test('a pushed row is patched in place: the queue asks main for no window after a push', async ({
  page,
  app,
}) => {
  const { id } = await app.sandbox.createCustomer('document', 'Quinn');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  // A fresh page: whatever the add set off is over, and the queue asks for its window once.
  const listening = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/events');
  await page.reload();
  // Main adds the page to its pushes before it answers the event stream's request.
  await listening;
  const quinn = row(page, /document Quinn/);
  await expect(quinn).toHaveAttribute('aria-selected', 'true');
  await expect(quinn).toContainText('Needs document');
  await expect(section(page, 'Needs document')).toHaveAccessibleName('Needs document 1');

  const windows: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/invoke/queue.window')) windows.push(request.url());
  });
  await app.sandbox.uploadDocument(id);
  await expect(quinn).toContainText('In review');
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 1');
  await expect(section(page, 'Needs document')).toHaveAccessibleName('Needs document 0');

  await app.sandbox.advanceClock(120);
  await expect(quinn).toContainText('Verified');
  await expect(section(page, 'Verified')).toHaveAccessibleName('Verified 1');
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 0');
  // The selection and the keys stay on the row that changed.
  await expect(quinn).toHaveAttribute('aria-selected', 'true');
  expect(windows).toEqual([]);
});

test('the customer view shows status, history, links and the actions its status allows', async ({
  page,
  app,
}) => {
  const { id, email } = await app.sandbox.createCustomer('retry', 'Moreno');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  await row(page, /retry Moreno/).click();

  const panel = page.getByRole('region', { name: 'Case' });
  await expect(panel.getByRole('heading', { level: 2, name: 'retry Moreno' })).toBeVisible();
  await expect(panel.getByText(email)).toBeVisible();
  await expect(panel.getByText(/^Needs retry for/)).toBeVisible();
  const history = page.getByRole('region', { name: 'Timeline' });
  await expect(history.getByRole('listitem').filter({ hasText: 'Status: Needs retry' })).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'On the service' }).getByRole('link').first()).toBeVisible();

  const retry = page.getByRole('button', { name: 'Retry verification' });
  await expect(retry).toBeVisible();
  const upload = page.getByRole('button', { name: 'Upload documents' });
  await expect(upload).toBeDisabled();
  await expect(upload).toHaveAccessibleDescription(/.+/);

  // Vetted did not create this customer, so it holds no personal data to mask or reveal.
  await expect(page.getByText('Vetted holds no personal data for this customer')).toBeVisible();
  await expect(page.getByRole('button', { name: /Reveal personal data/ })).toHaveCount(0);

  await panel.getByRole('button', { name: 'Refresh', exact: true }).click();
  await expect(panel.getByText('Refreshed from the service.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to queue' }).click();
  await expect(row(page, /retry Moreno/)).toHaveAttribute('aria-selected', 'true');
});

test('a long queue is virtualized: only a screenful of rows is in the page', async ({ page, app }) => {
  const customers = 250;
  for (let batch = 0; batch < customers; batch += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => app.sandbox.createCustomer('Nora', `Number${batch + i}`)),
    );
  }
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(section(page, 'All')).toHaveAccessibleName(`All ${customers}`);
  await expect(caseRows(page).first()).toBeVisible();
  expect(await caseRows(page).count()).toBeLessThan(40);

  // The grid is its own scroller (one tab stop that scrolls): to its end.
  await list(page).evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  // Row 1 is the header: the last case is row customers + 1 of as many.
  const last = caseRows(page).last();
  await expect(last).toHaveAttribute('aria-rowindex', String(customers + 1));
  await expect(list(page)).toHaveAttribute('aria-rowcount', String(customers + 1));
  expect(await caseRows(page).count()).toBeLessThan(40);
});

test('personal data stays masked until the reviewer gives a reason to reveal it', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('document', 'Novak');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  await app.withJournal((journal) =>
    journal.customers.setPersonal(id, {
      address: { address1: '221 Baker Street', city: 'Springfield', state: 'IL', postalCode: '62704' },
      dateOfBirth: '1984-02-29',
      ssnLastFour: '6789',
    }),
  );
  // Written behind the app's back: a fresh page reads it.
  await page.reload();
  await row(page, /document Novak/).click();

  const personal = page.getByRole('region', { name: 'Personal data' });
  await expect(personal).toContainText('•••-••-6789');
  await expect(personal).toContainText('Hidden');
  await expect(page.locator('body')).not.toContainText('1984-02-29');
  await expect(page.locator('body')).not.toContainText('Baker Street');

  await personal.getByRole('button', { name: 'Reveal personal data…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reveal personal data' });
  await expect(dialog.getByLabel('Reason')).toBeFocused();
  await dialog.getByLabel('Reason').fill('why');
  await dialog.getByRole('button', { name: 'Reveal' }).click();
  await expect(dialog.getByRole('alert')).toContainText('at least 5 characters');
  await expect(page.locator('body')).not.toContainText('1984-02-29');

  await dialog.getByLabel('Reason').fill('Checking the address before a document upload');
  await dialog.getByRole('button', { name: 'Reveal' }).click();
  await expect(dialog).toBeHidden();
  await expect(personal).toContainText('1984-02-29');
  await expect(personal).toContainText('221 Baker Street, Springfield, IL 62704');
  await expect(personal).toContainText('•••-••-6789');

  await personal.getByRole('button', { name: 'Hide personal data' }).click();
  await expect(page.locator('body')).not.toContainText('1984-02-29');
});

test('a customer the service no longer knows says so plainly, in the queue and in its view', async ({
  page,
  app,
}) => {
  const { id } = await app.sandbox.createCustomer('retry', 'Olsen');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  await app.withJournal((journal) => journal.customers.markGone(id));
  await page.reload();

  await expect(row(page, /retry Olsen/)).toContainText('Gone from the service');
  await row(page, /retry Olsen/).click();
  await expect(page.getByText('This customer no longer exists on the service.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry verification' })).toBeDisabled();
});

test('Refresh all shows its progress while it checks customers with the service', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('retry', 'Patel');
  await page.goto(app.launchUrl);
  await addCustomer(page, id);
  await app.sandbox.slowCustomerReads(2_000);

  await page.getByRole('button', { name: 'Refresh all' }).click();
  await expect(page.getByRole('progressbar', { name: 'Checking customers with the service' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Refresh all' })).toBeDisabled();
  await expect(page.getByText('Checked 1 customer with the service.')).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refresh all' })).toBeEnabled();
});
