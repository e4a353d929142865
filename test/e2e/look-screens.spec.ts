import type { Page } from '@playwright/test';
import { expect, test } from './look/canned-desk.ts';
import { customerDetail, NOW, PEOPLE } from './look/world.ts';
import { expectNoAxeViolations } from './support/axe.ts';
import { expectSelectsShowWholeValue } from './support/selects.ts';

/**
 * Screenshot comparisons of every screen a reviewer works in: the queue, a case in each status, New
 * customer, Events, Audit and Settings, at the two common laptop sizes, light and dark. The data is the
 * fixed world of look/world.ts, the page's clock is frozen at its NOW, the time zone and locale are set:
 * what differs between two runs is only anti-aliasing, which the small tolerance in playwright.config.ts
 * absorbs. Baselines: test/e2e/__screenshots__ (`npx playwright test test/e2e/look-screens.spec.ts
 * --update-snapshots` after a deliberate change, then look at every image).
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

/** One customer of each status, by the words of its section's title. */
const CASES = PEOPLE.map((who) => ({ id: who.id, name: who.name, section: who.section })).filter(
  (who, index, all) => all.findIndex((other) => other.section === who.section) === index,
);

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

/**
 * The pointer away from anything it would light up, then the window compared with its baseline; at one
 * size per scheme, axe on the same screen too (every status, the long names, the overdue marks).
 */
async function compare(page: Page, name: string, variant: string): Promise<void> {
  await page.mouse.move(2, 2);
  await expect(page).toHaveScreenshot(`${name}-${variant}.png`);
  if (variant.startsWith('1280')) await expectNoAxeViolations(page, { screen: `${name}, ${variant}` });
}

async function caseShown(page: Page, name: string): Promise<void> {
  const pane = page.getByRole('region', { name: 'Case' });
  await expect(pane.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(pane.getByRole('region', { name: 'Timeline' }).getByRole('listitem').first()).toBeVisible();
  await expect(pane.getByRole('region', { name: 'ID documents' })).not.toContainText('Loading documents');
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    const variant = `${size.width}x${size.height}-${colorScheme}`;
    test.describe(variant, () => {
      test.use({ viewport: size, colorScheme, locale: 'en-US', timezoneId: 'UTC' });

      test(`every screen looks as its baseline, ${variant}`, async ({ page, desk }) => {
        // Sixteen comparisons, and as many axe analyses at 1280 px, on a loaded 2-core machine.
        test.setTimeout(300_000);
        await page.clock.setFixedTime(NOW);
        await page.goto(desk.launchUrl);

        // The queue opens its first case by itself: never an empty half screen.
        await caseShown(page, CASES[0]?.name ?? '');
        await compare(page, 'queue', variant);

        for (const { id, name, section } of CASES.slice(1)) {
          await page
            .getByRole('grid', { name: 'Customers' })
            .getByRole('row', { name: new RegExp(name) })
            .click();
          await caseShown(page, customerDetail(id).name);
          await compare(page, `case-${section}`, variant);
          if (section === 'retry') {
            // The timeline, further down the case: days as headings, an icon per kind of entry.
            await page.getByRole('region', { name: 'Timeline' }).scrollIntoViewIfNeeded();
            await compare(page, 'case-timeline', variant);
          }
        }

        await nav(page, 'New customer');
        await expect(page.getByRole('complementary', { name: 'Drafts & outbox' })).toContainText('No draft');
        await expectSelectsShowWholeValue(page);
        await compare(page, 'new-customer', variant);

        await nav(page, 'Events');
        await expect(page.getByRole('table', { name: 'Events' }).getByRole('row')).toHaveCount(12);
        await expectSelectsShowWholeValue(page);
        await compare(page, 'events', variant);

        await nav(page, 'Audit');
        await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row')).toHaveCount(10);
        await expectSelectsShowWholeValue(page);
        await compare(page, 'audit', variant);

        await nav(page, 'Settings');
        await expect(page.getByRole('heading', { level: 3, name: 'Diagnostics' })).toBeVisible();
        await expect(page.getByRole('form', { name: 'Join a team' })).toBeVisible();
        await expectSelectsShowWholeValue(page);
        await compare(page, 'settings', variant);

        expect(desk.unexpected).toEqual([]);
      });
    });
  }
}
