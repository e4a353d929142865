import { expect, test } from './look/canned-desk.ts';
import { NOW } from './look/world.ts';
import { expectNoAxeViolations } from './support/axe.ts';

/**
 * The queue with the team store away for two minutes (#37), compared with its baselines at the two laptop
 * sizes, light and dark: the fixed world of look/world.ts, the page's clock frozen at its NOW, so the notice
 * always says "2 min". The live behaviour (when it shows, that it goes) is team-store-away.spec.ts's.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    const variant = `${size.width}x${size.height}-${colorScheme}`;
    test.describe(variant, () => {
      test.use({
        viewport: size,
        colorScheme,
        locale: 'en-US',
        timezoneId: 'UTC',
        world: { 'team.presence': () => ({ awaySince: NOW - 2 * 60_000 }) },
      });

      test(`the queue with the team store away looks as its baseline, ${variant}`, async ({ page, desk }) => {
        await page.clock.setFixedTime(NOW);
        await page.goto(desk.launchUrl);
        const notice = page.getByRole('status', { name: 'Team store' });
        await expect(notice).toContainText('The team store has not answered for 2 min');
        const pane = page.getByRole('region', { name: 'Case' });
        await expect(
          pane.getByRole('region', { name: 'Timeline' }).getByRole('listitem').first(),
        ).toBeVisible();
        await expect(pane.getByRole('region', { name: 'ID documents' })).not.toContainText(
          'Loading documents',
        );
        await page.mouse.move(2, 2);
        await expect(page).toHaveScreenshot(`queue-store-away-${variant}.png`);
        if (size.width === 1280)
          await expectNoAxeViolations(page, { screen: `Queue, store away, ${variant}` });
        expect(desk.unexpected).toEqual([]);
      });
    });
  }
}
