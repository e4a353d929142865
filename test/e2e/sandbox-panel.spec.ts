import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './support/queue-fixtures.ts';

/** The Sandbox panel: the built-in sandbox's clock, its faults and its address, from the app itself. */

const navigateTo = (page: Page, name: 'Sandbox' | 'Events') =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name }).click();

test('finishes the sandbox’s reviews now, and the events say so', async ({ page, app }) => {
  const { id } = await app.sandbox.createCustomer('document', 'Reyes');
  await app.sandbox.uploadDocument(id);
  await page.goto(app.launchUrl);
  await navigateTo(page, 'Sandbox');
  await expect(page.getByRole('heading', { level: 2, name: 'Sandbox' })).toBeVisible();
  await page.getByRole('button', { name: 'Finish reviews now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'pending reviews are finished' })).toBeVisible();

  await navigateTo(page, 'Events');
  const events = page.getByRole('table', { name: 'Events' });
  await expect(events.getByRole('row').filter({ hasText: 'Document approved' })).toHaveCount(1);
});

test('injects a fault chosen from a list, and clears it', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  await navigateTo(page, 'Sandbox');
  const faults = page.getByRole('region', { name: 'Faults' });
  await expect(faults).toContainText('Now: none');
  // Nothing chosen yet: the button says why it does nothing.
  await expect(faults.getByRole('button', { name: 'Inject' })).toHaveAccessibleDescription(
    'Choose a fault first.',
  );
  await faults.getByLabel('Fault to inject').selectOption({ label: 'Service unavailable (503)' });
  await faults.getByRole('button', { name: 'Inject' }).click();
  await expect(faults).toContainText('Now: Service unavailable (503), on 50% of the service’s requests.');
  await faults.getByRole('button', { name: 'Clear faults' }).click();
  await expect(faults).toContainText('Now: none');
  await expect(page.getByRole('status').filter({ hasText: 'Faults cleared.' })).toBeVisible();
});

test('shows the sandbox’s address and a curl command that works as shown', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  await navigateTo(page, 'Sandbox');
  const curl = page.getByRole('region', { name: 'curl command' });
  await expect(curl).toContainText(`${app.sandbox.baseUrl}/oauth/v2/token`);
  await expect(page.getByRole('definition').filter({ hasText: app.sandbox.baseUrl })).toBeVisible();
  const { createCustomer } = app.sandbox;
  const { id } = await createCustomer('Curl', 'Tester');
  const { stdout } = await promisify(execFile)('sh', ['-c', (await curl.textContent()) ?? '']);
  expect(JSON.parse(stdout)).toMatchObject({
    _embedded: { customers: expect.arrayContaining([expect.objectContaining({ id })]) },
  });
});

test('the Sandbox panel is offered only on the built-in sandbox', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  const sandboxNav = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sandbox' });
  await expect(sandboxNav).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('radio', { name: 'My service account' }).check();
  await page.getByLabel('Base URL').fill('https://127.0.0.1:9');
  await page.getByLabel('Client ID').fill('vetted-test');
  await page.getByLabel('Client secret').fill('not-a-real-secret');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('contentinfo')).toContainText('Service: https://127.0.0.1:9');
  await expect(sandboxNav).toHaveCount(0);
});
