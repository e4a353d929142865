import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { DELETE_SUBSCRIPTION_WARNING, type EventRow } from '#contract/webhooks.ts';
import type { PageGlobals } from './fixtures.ts';
import { expect, test } from './support/queue-fixtures.ts';

/**
 * Webhooks end to end: the built-in sandbox delivers its events to Vetted's listener on loopback,
 * signed with the secret of the subscription Vetted made there, and nothing in these tests asks
 * Vetted to look: events, queue moves and toasts arrive by themselves.
 */

const navigateTo = (page: Page, name: 'Queue' | 'Events' | 'Webhooks') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();
const eventTable = (page: Page) => page.getByRole('table', { name: 'Events' });
const eventRows = (page: Page, text: string | RegExp) =>
  eventTable(page).getByRole('row').filter({ hasText: text });
const toasts = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const queueSection = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${title}`) });

const LISTENER_URL = /^http:\/\/127\.0\.0\.1:\d+\/webhooks$/;

test('the Webhooks screen shows the sandbox’s subscription of the listener, and manages it', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  await navigateTo(page, 'Webhooks');
  await expect(page.getByRole('heading', { level: 2, name: 'Webhooks' })).toBeVisible();

  const subscriptions = page.getByRole('region', { name: 'Subscriptions' });
  const ours = subscriptions.getByRole('row').filter({ hasText: 'Vetted’s listener' });
  await expect(ours).toHaveCount(1);
  await expect(ours).toContainText('Active');
  await expect(subscriptions).toContainText('1 of at most 10');
  const url = (await ours.getByRole('rowheader').textContent()) ?? '';
  expect(url).toMatch(LISTENER_URL);

  const listener = page.getByRole('region', { name: 'Listener' });
  await expect(listener).toContainText('Running');
  await expect(listener).toContainText(url);

  // On the sandbox there is no tunnel to check: Check says so rather than failing obscurely.
  const tunnel = page.getByRole('region', { name: 'Tunnel' });
  await tunnel.getByRole('button', { name: 'Check tunnel' }).click();
  await expect(tunnel.getByRole('status')).toContainText('No public URL is set');

  // Plain http reaches only this machine: anything else is refused in words, beside the field.
  const field = subscriptions.getByLabel('URL to deliver to');
  await field.fill('http://vetted.example.com/webhooks');
  await subscriptions.getByRole('button', { name: 'Subscribe' }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(subscriptions.getByRole('alert')).toContainText('https');

  // A paused subscription gets nothing: catching up says so and offers to resume it.
  await ours.getByRole('button', { name: `Pause the subscription to ${url}` }).click();
  await expect(ours).toContainText('Paused');
  const missed = page.getByRole('region', { name: 'Missed events' });
  await missed.getByRole('button', { name: 'Catch up' }).click();
  await expect(missed.getByRole('status')).toContainText('Caught up');
  await expect(missed).toContainText('is paused');
  await missed.getByRole('button', { name: `Resume the subscription to ${url}` }).click();
  await expect(subscriptions.getByRole('status')).toContainText(`Resumed ${url}`);
  await expect(ours).toContainText('Active');
  await expect(missed.getByRole('button', { name: /^Resume/ })).toHaveCount(0);

  // Deleting warns first that the service forgets the deliveries with it.
  await ours.getByRole('button', { name: `Delete the subscription to ${url}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete subscription' });
  await expect(dialog).toContainText(DELETE_SUBSCRIPTION_WARNING);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(ours).toHaveCount(0);
  await expect(subscriptions).toContainText('0 of at most 10');

  // Subscribing with the field left empty subscribes Vetted's own address again.
  await field.clear();
  await subscriptions.getByRole('button', { name: 'Subscribe' }).click();
  await expect(subscriptions.getByRole('status')).toContainText('never shown');
  await expect(ours).toHaveCount(1);
});

test('events arrive in the event log by themselves, and filter and export', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  await navigateTo(page, 'Events');
  await expect(page.getByText('No events received yet')).toBeVisible();

  // A customer made on the service behind Vetted's back: its events are logged all the same, by its id
  // until Vetted has read the customer they name.
  const { id } = await app.sandbox.createCustomer('Dana', 'Dale');
  const dana = new RegExp(`${id}|Dana Dale`);
  await expect(eventRows(page, dana)).toHaveCount(2);
  // Topics in words, not as the service's identifiers.
  await expect(eventRows(page, 'Customer created')).toContainText('Verified');
  await expect(eventRows(page, 'Customer verified')).toHaveCount(1);
  await expect(eventTable(page)).not.toContainText('customer_created');

  await page.getByLabel('Topic').selectOption({ label: 'Customer verified' });
  await expect(eventRows(page, dana)).toHaveCount(1);
  await expect(eventRows(page, 'Customer created')).toHaveCount(0);
  await expect(page.getByText('1 event matches')).toBeVisible();
  const filter = page.getByRole('group', { name: 'Filter' });
  await expect(filter.getByRole('status')).toHaveText('Showing only: Customer verified');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON Lines' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^vetted-events-customer_verified-.*\.jsonl$/);
  const lines = (await readFile(await download.path(), 'utf8')).split('\n');
  expect(lines.at(-1)).toBe('');
  const exported = lines.slice(0, -1).map((line) => JSON.parse(line) as EventRow);
  expect(exported).toEqual([
    expect.objectContaining({ topic: 'customer_verified', customerId: id, signatureVerified: true }),
  ]);
  await expect(page.getByText('Exported 1 event.')).toBeVisible();

  await filter.getByRole('button', { name: 'Clear filter' }).click();
  await expect(eventRows(page, dana)).toHaveCount(2);
  await expect(filter.getByRole('button', { name: 'Clear filter' })).toHaveCount(0);

  // A row opens its detail, from the keyboard too; the detail narrows the log to its customer.
  const topic = eventRows(page, 'Customer created').getByRole('button', { name: 'Customer created' });
  await topic.focus();
  await page.keyboard.press('Enter');
  const detail = page.getByRole('dialog', { name: 'Customer created' });
  await expect(detail).toContainText('Received at');
  await expect(detail).toContainText('Verified: signed');
  await expect(
    detail
      .getByRole('definition')
      .filter({ hasText: /^[0-9a-f-]{36}$/ })
      .first(),
  ).toBeVisible();
  await expect(detail.getByRole('region', { name: 'Payload' })).toContainText('"topic": "customer_created"');
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();
  await expect(topic).toBeFocused();

  await eventRows(page, 'Customer created').getByRole('cell').first().click();
  await detail.getByRole('button', { name: 'Show only this customer’s events' }).click();
  await expect(page.getByLabel('Customer ID')).toHaveValue(id);
  await expect(filter.getByRole('status')).toHaveText(`Showing only: customer ${id}`);
  await expect(eventRows(page, dana)).toHaveCount(2);
});

test('a status change delivered by webhook moves the queue row and raises a toast', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('document', 'Lopez');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Add customer' }).click();
  const adding = page.getByRole('dialog', { name: 'Add customer' });
  await adding.getByLabel('Customer ID or URL').fill(id);
  await adding.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(adding).toBeHidden();
  await queueSection(page, 'Needs document').click();
  await expect(page.getByRole('row', { name: /document Lopez/ })).toBeVisible();

  await app.sandbox.uploadDocument(id);
  await expect(queueSection(page, 'Document in review')).toHaveAccessibleName('Document in review 1');
  // The sandbox reviews the document a minute later on its own clock, approves it, and says so by webhook.
  await app.sandbox.advanceClock(120);
  const toast = toasts(page).getByRole('button', { name: 'Customer verified document Lopez' });
  await expect(toast).toBeVisible();
  await expect(queueSection(page, 'Verified')).toHaveAccessibleName('Verified 1');
  await expect(page.getByRole('row', { name: /document Lopez/ })).toHaveCount(0);
  // The toast did not take the focus from where the reviewer was.
  await expect(queueSection(page, 'Needs document')).toBeFocused();

  // From the keyboard, the toast opens its customer, and goes.
  await toast.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'document Lopez' })).toBeVisible();
  await expect(toasts(page).getByRole('button')).toHaveCount(0);

  // The customer's timeline links the change to the event that reported it.
  const history = page.getByRole('region', { name: 'Timeline' });
  const verified = history.getByRole('listitem').filter({ hasText: 'Status: Verified' });
  await expect(verified).toContainText('Reported by the service:');
  await verified.getByRole('button', { name: 'Show in event log' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Events' })).toBeVisible();
  await expect(page.getByLabel('Customer ID')).toHaveValue(id);
  await expect(eventTable(page).locator('tr[aria-current="true"]')).toContainText('document Lopez');
});

test('Esc dismisses the toast it is in, and only that', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('document', 'Moss');
  await page.goto(app.launchUrl);
  // Followed through the bridge rather than the dialog: the queue's tests cover adding.
  await page.evaluate((ref) => (globalThis as PageGlobals).vetted?.customers.add({ ref }), id);
  await app.sandbox.uploadDocument(id);
  await app.sandbox.advanceClock(120);

  const dismiss = toasts(page).getByRole('button', { name: 'Dismiss: Customer verified, document Moss' });
  await expect(dismiss).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('moss');
  await dismiss.focus();
  await page.keyboard.press('Escape');
  await expect(toasts(page).getByRole('button')).toHaveCount(0);
  // The queue's own Esc (clear the search) was not run.
  await expect(page.getByRole('searchbox', { name: 'Search customers' })).toHaveValue('moss');
});
