import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { caseRows, section } from './support/queue-helpers.ts';

/** A first run on the built-in sandbox (#40): the empty queue offers sample customers, and one click fills it. */

/** Screenshots to look at (not compared): each size a reviewer uses, light and dark, with no axe violation. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [1440, 900],
  ] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme });
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `test-results/samples/${name}-${width}x${height}-${colorScheme}.png` });
    }
  }
}

test('the empty queue offers sample customers; one click (from the keyboard) fills the queue with them, marked', async ({
  page,
  vetted,
}) => {
  // A dozen customers through the create path, then four screenshots each with an axe scan: 43 s alone, past
  // the default minute once beside other work at load 12.
  test.setTimeout(180_000);
  await page.goto(vetted.launchUrl);
  await expect(page.getByRole('heading', { name: 'Vetted' })).toBeVisible();
  const offer = page.getByRole('button', { name: 'Add sample customers' });
  await expect(offer).toBeVisible();
  await shoot(page, 'empty-queue');

  await offer.focus();
  await page.keyboard.press('Enter');
  // All holds the dozen, each marked as a sample (its tag's words are in its row).
  await expect(section(page, 'All')).toHaveAccessibleName('All 12', { timeout: 60_000 });
  await section(page, 'All').click();
  await expect(caseRows(page)).toHaveCount(12);
  await expect(caseRows(page).filter({ hasText: 'Sample' })).toHaveCount(12);
  await expect(offer).toHaveCount(0);
  await shoot(page, 'queue-with-samples');
});
