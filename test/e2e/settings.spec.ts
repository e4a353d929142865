import { expect, test } from './fixtures.ts';

test('Settings shows the sandbox, tests the connection, and keeps the secret write-only', async ({
  page,
  vetted,
}) => {
  await page.goto(vetted.launchUrl);
  await expect(page.getByRole('contentinfo').getByRole('status')).toHaveText('Online');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();

  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Built-in sandbox/ })).toBeChecked();
  await expect(page.getByText(/file permissions only/)).toBeVisible();

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText(/^Connected\. Token valid until/)).toContainText('ManageAccount');

  await page.getByRole('radio', { name: 'My service account' }).check();
  await page.getByLabel('Base URL').fill('http://example.com');
  await page.getByLabel('Client ID').fill('vetted-test');
  await page.getByLabel('Client secret').fill('s3cret-value-typed-once');
  await page.getByRole('button', { name: 'Save' }).click();
  // http to a remote host is refused, next to the field, and nothing is saved.
  await expect(page.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toContainText('https');

  await page.getByLabel('Base URL').fill('https://127.0.0.1:9');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await expect(page.getByLabel('Client secret')).toHaveValue('');
  await expect(page.getByText('A secret is stored. Type a new one to replace it.')).toBeVisible();
  expect(await page.content()).not.toContain('s3cret-value-typed-once');

  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('alert')).toContainText('Connection failed');
  await expect(page.getByRole('contentinfo')).toContainText('Service: https://127.0.0.1:9');
  expect(vetted.logLines.length).toBeGreaterThan(0);
  for (const line of vetted.logLines) expect(line).not.toContain('s3cret-value-typed-once');
});

test('Settings says how to update browser mode instead of offering updates', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const updates = page.getByRole('region', { name: 'Updates' });
  await expect(updates.getByRole('status')).toContainText('git pull');
  await expect(updates.getByRole('button', { name: 'Check for updates' })).toHaveCount(0);
  await expect(updates.getByRole('radio')).toHaveCount(0);
});
