import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';

test('Settings chooses how the built-in sandbox behaves and keeps the choice', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  const profile = page.getByLabel('Sandbox behaves like');
  await expect(profile).toHaveValue('interface');
  await expect(page.getByText(/restarts the built-in sandbox/)).toBeVisible();

  await profile.selectOption({ label: 'Like today’s real service' });
  await page.getByRole('button', { name: 'Save' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved.' })).toBeVisible();
  const saved = JSON.parse(readFileSync(path.join(vetted.dataDir, 'settings.json'), 'utf8'));
  expect(saved.sandboxProfile).toBe('real');

  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByLabel('Sandbox behaves like')).toHaveValue('real');
  // Only the built-in sandbox has a behaviour to choose.
  await page.getByRole('radio', { name: 'My service account' }).check();
  await expect(page.getByLabel('Sandbox behaves like')).toHaveCount(0);
});
