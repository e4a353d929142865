import type { Page } from '@playwright/test';
import { createServiceClient } from '#main/data/service/index.ts';
import { type RunningSandbox, startSandbox } from '#sandbox/index.ts';
import { test as base, expect } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { dropFiles, sampleFile } from './support/documents-helpers.ts';
import { createThroughDraft, person, textbox } from './support/drafts-helpers.ts';
import { caseRow, section } from './support/queue-helpers.ts';

/**
 * Today's real service, played by a standalone sandbox on its `real` profile, connected as a
 * reviewer would: "My service account" in Settings, not the built-in shortcut. Token at `/token`
 * with a form body and Basic credentials, 403 `notFound`, no `scope`: Automatic must find its way.
 */

/** The sandbox, and each request line it logged (`... POST /token 200 ...`). */
interface RealService extends RunningSandbox {
  lines: string[];
}

const test = base.extend<{ realService: RealService }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture needs from this pattern.
  realService: async ({}, use) => {
    const lines: string[] = [];
    const sandbox = await startSandbox({ port: 0, profile: 'real', log: (line) => lines.push(line) });
    await use(Object.assign(sandbox, { lines }));
    await sandbox.close();
  },
});

const navigateTo = (page: Page, name: 'Queue' | 'Settings' | 'Webhooks') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();
const backToQueue = (page: Page) => page.getByRole('button', { name: 'Back to queue' }).click();

test('my service account on today’s real service: connect, create, retry, upload, a webhook, a kba customer', async ({
  page,
  vetted,
  realService,
}) => {
  test.setTimeout(120_000);
  await page.goto(vetted.launchUrl);
  await navigateTo(page, 'Settings');
  await page.getByRole('radio', { name: 'My service account' }).check();
  await page.getByLabel('Base URL').fill(realService.baseUrl);
  await page.getByLabel('Client ID').fill(realService.clientId);
  await page.getByLabel('Client secret').fill(realService.clientSecret);
  await expect(page.getByLabel('Token endpoint')).toHaveValue('automatic');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/^Connected\. Token valid until/)).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText(`Service: ${realService.baseUrl}`);
  await expect(page.getByRole('contentinfo').getByRole('status')).toHaveText('Online');
  await expectNoAxeViolations(page, { screen: 'Settings, my service account connected' });

  // The listener subscribed to the account: loopback stands in for the tunnel a reviewer would set.
  await navigateTo(page, 'Webhooks');
  const listenerUrl = await page
    .getByRole('region', { name: 'Listener' })
    .getByText(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/)
    .textContent();
  const subscriptions = page.getByRole('region', { name: 'Subscriptions' });
  await subscriptions.getByLabel('URL to deliver to').fill(listenerUrl ?? '');
  await subscriptions.getByRole('button', { name: 'Subscribe' }).click();
  const ours = subscriptions.getByRole('row').filter({ hasText: 'Vetted’s listener' });
  await expect(ours).toHaveCount(1);
  await expect(ours).toContainText('Active');

  // Created through a draft, then its one retry.
  await createThroughDraft(page, person('retry', 'Quist'), 'Needs retry');
  await page.getByRole('button', { name: 'Retry verification' }).click();
  const retry = page.getByRole('dialog', { name: 'Retry verification' });
  await expect(textbox(retry, 'First name')).toHaveValue('retry');
  await retry.getByLabel('Social Security number').fill('123-45-6789');
  await retry.getByRole('button', { name: 'Send retry…' }).click();
  await retry.getByRole('button', { name: 'Send the retry' }).click();
  await expect(retry.getByRole('status')).toHaveText('Retry sent. The customer is now verified.');
  await retry.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText(/^Verified for/)).toBeVisible();
  await backToQueue(page);

  // A document for a customer the service asks one of.
  await createThroughDraft(page, person('document', 'Upton'), 'Needs document');
  const documents = page.getByRole('region', { name: 'ID documents' });
  await dropFiles(page, documents.getByRole('group', { name: 'Drop ID photos here' }), [
    sampleFile('passport.png'),
  ]);
  const card = documents.getByRole('listitem', { name: 'passport.png' });
  await card.getByLabel('Document type').selectOption({ label: 'Passport' });
  await card.getByRole('button', { name: 'Upload' }).click();
  await expect(card.getByRole('status')).toContainText('Uploaded');
  await backToQueue(page);
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 1');

  // The service reviews it a minute later on its clock and says so by webhook: the row moves by itself
  // (the reviewer is in the search box, not in the list, so the queue applies the change at once).
  await page.getByRole('searchbox', { name: 'Search customers' }).focus();
  await realService.advanceClock(120);
  await expect(
    page.getByRole('status', { name: 'Notifications' }).getByRole('button', {
      name: 'Customer verified document Upton',
    }),
  ).toBeVisible();
  await expect(section(page, 'Document in review')).toHaveAccessibleName('Document in review 0');
  await section(page, 'Verified').click();
  await expect(caseRow(page, 'document Upton')).toBeVisible();
  await expect(caseRow(page, 'retry Quist')).toBeVisible();

  // A kba customer: its own section, and what to do in words; nothing to send from here.
  await createThroughDraft(page, person('kba', 'Quayle'), 'Knowledge-based questions');
  await expect(page.getByText(/customer must answer knowledge-based questions/)).toBeVisible();
  const retryKba = page.getByRole('button', { name: 'Retry verification' });
  await expect(retryKba).toHaveAccessibleDescription(/knowledge-based questions/);

  // Automatic asked today's form first and kept to it: the document's endpoint was never needed.
  const tokenPaths = realService.lines.flatMap(
    (line) => line.match(/ POST (\/token|\/oauth\/v2\/token) /)?.[1] ?? [],
  );
  expect(tokenPaths.length).toBeGreaterThan(0);
  expect(new Set(tokenPaths)).toEqual(new Set(['/token']));
  const basic = Buffer.from(`${realService.clientId}:${realService.clientSecret}`).toString('base64');
  for (const line of vetted.logLines) {
    expect(line).not.toContain(realService.clientSecret);
    expect(line).not.toContain(basic);
  }

  // The webhook really came from the service: it recorded a successful delivery of the verification.
  const client = createServiceClient({
    baseUrl: realService.baseUrl,
    clientId: realService.clientId,
    clientSecret: realService.clientSecret,
  });
  try {
    const [subscription] = await client.subscriptions.list();
    const { deliveries } = await client.subscriptions.deliveries(subscription!.id, { limit: 100 });
    expect(JSON.stringify(deliveries)).toContain('customer_verified');
  } finally {
    await client.close();
  }
});
