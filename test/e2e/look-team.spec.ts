import type { Page } from '@playwright/test';
import { expect, test } from './look/canned-desk.ts';
import { FOUR_EYES, HELD_BY_ANOTHER, HELD_BY_ME, type TeamView } from './look/team-world.ts';
import { customerDetail, NOW } from './look/world.ts';
import { expectNoAxeViolations } from './support/axe.ts';

/**
 * Screenshot comparisons of the team's screens, as look-screens.spec.ts does the solo ones: a case held by
 * me and by another reviewer, four eyes as the maker and as the checker, Settings → Team, the Team screen and
 * its trends' charts and the period report's form (#39); at the two laptop sizes, light and dark, axe on each at 1280 px. The world is look/team-world.ts (the look's
 * customers, held by Dana, Sam and Lee's team) answered by the canned desk, with no team store behind it:
 * a team store would put its own clock and random logins on every screen. The held case's words are checked
 * by role and label here too. Baselines: test/e2e/__screenshots__/team-*.png (`npx playwright test
 * test/e2e/look-team.spec.ts --update-snapshots` after a deliberate change, then look at every image).
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
] as const;

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const casePane = (page: Page) => page.getByRole('region', { name: 'Case' });

/**
 * The window compared with its baseline; at 1280 px, axe on what the screen adds to the solo ones (`include`:
 * the case, the Team screen, Settings → Team). A whole page's analysis takes many seconds on a loaded
 * machine, and the team's queue with its "Who has it" is analysed in both schemes by team-claims.spec.ts.
 */
async function compare(page: Page, name: string, variant: string, include: string): Promise<void> {
  await page.mouse.move(2, 2);
  await expect(page).toHaveScreenshot(`team-${name}-${variant}.png`);
  if (variant.startsWith('1280'))
    await expectNoAxeViolations(page, { screen: `team ${name}, ${variant}`, include });
}

const CASE = 'article.case';

/** Opens a case from the queue and waits for all it shows: its holder, its timeline, its documents. */
async function openCase(page: Page, id: string): Promise<void> {
  const { name } = customerDetail(id);
  await page
    .getByRole('grid', { name: 'Customers' })
    .getByRole('row', { name: new RegExp(name) })
    .click();
  const pane = casePane(page);
  await expect(pane.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(pane.getByRole('region', { name: 'Who has this case' })).toContainText(
    /(has|You have) this since/,
  );
  await expect(pane.getByRole('region', { name: 'Timeline' }).getByRole('listitem').first()).toBeVisible();
  await expect(pane.getByRole('region', { name: 'ID documents' })).not.toContainText('Loading documents');
}

async function settingsTeam(page: Page): Promise<void> {
  await nav(page, 'Settings');
  const team = page.getByRole('region', { name: 'Team', exact: true });
  await expect(team.getByRole('spinbutton', { name: 'Claim idle time (minutes)' })).toHaveValue('30');
  await team.scrollIntoViewIfNeeded();
}

/** Dana, a reviewer: a case Sam holds, one she holds, one whose retry waits for a lead; Settings → Team. */
async function asReviewer(page: Page, variant: string): Promise<void> {
  await openCase(page, HELD_BY_ANOTHER);
  const pane = casePane(page);
  const step = pane.getByRole('region', { name: 'Next step' });
  // Who holds it, once in the header; the next step says what is left to Dana, its one action a note.
  await expect(pane.getByRole('region', { name: 'Who has this case' })).toContainText('sam has this since');
  await expect(step).toContainText('Leave this case to sam, or ask for it');
  await expect(step).toContainText(
    'Only sam can change this case on the service while they hold it. Write a note for them, or ask sam or a lead to hand it to you.',
  );
  await expect(step.getByRole('button', { name: 'Write a note' })).toBeVisible();
  await expect(pane.getByRole('button', { name: 'Write a note' })).toHaveCount(1);
  await expect(pane.getByText('Send the corrected details')).toHaveCount(0);
  // Retry and Upload stay in reach, refused by the step's own words rather than a sentence of their own.
  for (const name of ['Retry verification', 'Upload documents']) {
    await expect(pane.getByRole('button', { name })).toHaveAttribute('aria-disabled', 'true');
    await expect(pane.getByRole('button', { name })).toHaveAccessibleDescription(
      /^Only sam can change this case on the service while they hold it\./,
    );
  }
  await expect(pane.getByText(/Only sam can change this case/)).toHaveCount(1);
  await expect(pane.getByText(/sam has this case/)).toHaveCount(0);
  // Words for the administrator stay in the docs.
  await expect(page.getByText(/npm run/)).toHaveCount(0);
  await compare(page, 'case-held-by-another', variant, CASE);

  await openCase(page, HELD_BY_ME);
  await expect(pane.getByRole('region', { name: 'Next step' })).toContainText('Upload an ID document');
  await compare(page, 'case-held-by-me', variant, CASE);

  await openCase(page, FOUR_EYES);
  await expect(pane.getByRole('region', { name: 'Four eyes' })).toContainText('asked by you');
  await compare(page, 'four-eyes-maker', variant, CASE);

  await settingsTeam(page);
  await compare(page, 'settings-reviewer', variant, 'section.team');
}

/** Lee, a lead: the retry Dana asked for, to decide; the Team screen with its hubs apart, and its trends. */
async function asLead(page: Page, variant: string): Promise<void> {
  await openCase(page, FOUR_EYES);
  const fourEyes = casePane(page).getByRole('region', { name: 'Four eyes' });
  await expect(fourEyes).toContainText('asked by dana');
  await expect(fourEyes.getByRole('button', { name: /^Approve/ })).toBeVisible();
  await compare(page, 'four-eyes-checker', variant, CASE);

  await nav(page, 'Team');
  const hubs = page.getByRole('region', { name: 'Hubs' });
  await expect(hubs.getByRole('listitem')).toHaveText([/^hub\s*Running$/, /^hub2\s*Stopped$/]);
  const reviewers = page.getByRole('table', { name: /^Each reviewer/ });
  await expect(reviewers.getByRole('rowheader')).toHaveText([
    'dana',
    'lee (you)',
    'sam',
    'Closed with no reviewer’s action on the case',
  ]);
  await compare(page, 'screen', variant, 'section.team-screen');

  // The trends below, from their heading down: four charts, drawn, over the 30 days the screen opens on.
  const trends = page.getByRole('region', { name: 'Trends' });
  await expect(trends.getByRole('radio', { name: '30 days' })).toBeChecked();
  await expect(trends.getByRole('img', { name: /^Line chart: / }).locator('canvas')).toHaveCount(4);
  await trends.getByRole('heading', { name: 'Trends' }).evaluate((heading) => heading.scrollIntoView());
  await compare(page, 'trends', variant, 'section.team-trends');

  // The period report's form at the screen's foot: its days, format and page size, ready to save.
  const report = page.getByRole('region', { name: 'Period report' });
  await expect(report.getByRole('button', { name: 'Make the period report' })).toBeEnabled();
  await report.evaluate((section) => section.scrollIntoView({ block: 'end' }));
  await compare(page, 'period-report', variant, 'form.period-report');

  await settingsTeam(page);
  await compare(page, 'settings-lead', variant, 'section.team');
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const size of SIZES) {
    const variant = `${size.width}x${size.height}-${colorScheme}`;
    for (const team of ['reviewer', 'lead'] as const satisfies TeamView[]) {
      test.describe(`${team}, ${variant}`, () => {
        test.use({ viewport: size, colorScheme, locale: 'en-US', timezoneId: 'UTC', team });

        test(`the team’s screens as a ${team} sees them look as their baselines, ${variant}`, async ({
          page,
          desk,
        }) => {
          // Up to four comparisons and as many axe analyses, on a loaded 2-core machine.
          test.setTimeout(180_000);
          await page.clock.setFixedTime(NOW);
          await page.goto(desk.launchUrl);
          await (team === 'reviewer' ? asReviewer : asLead)(page, variant);
          expect(desk.unexpected).toEqual([]);
        });
      });
    }
  }
}
