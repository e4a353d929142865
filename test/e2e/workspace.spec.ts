import { expect, test } from './support/queue-fixtures.ts';
import { caseHeading, caseRow, caseRows, grid, section, selectedRow } from './support/queue-helpers.ts';

/** The reviewer's workspace: the queue and the case side by side, driven from the keyboard. */

const HOUR = 3_600_000;

test('20 cases are triaged from the keyboard alone, without a page change', async ({ page, app }) => {
  await Promise.all(Array.from({ length: 20 }, (_, i) => app.sandbox.createCustomer('Tara', `Triage${i}`)));
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(section(page, 'All')).toHaveAccessibleName('All 20');
  // A page load would lose this: it proves every step below stays on the one page.
  await page.evaluate(() => Object.assign(globalThis, { triageMarker: 'same page' }));

  await page.keyboard.press('/');
  await page.keyboard.press('ArrowDown');
  await expect(grid(page)).toBeFocused();
  const seen = new Set<string>();
  for (let i = 0; i < 20; i++) {
    if (i > 0) await page.keyboard.press(i % 2 ? 'j' : 'ArrowDown');
    const name = /Tara Triage\d+/.exec((await selectedRow(page).textContent()) ?? '')?.[0] ?? '';
    seen.add(name);
    // The case panel follows the selection, and the case has its own address.
    await expect(caseHeading(page, name)).toBeVisible();
    await expect(page).toHaveURL(/#\/queue\/all\/[0-9a-f-]{36}$/);
    if (i % 5 === 0) {
      await page.keyboard.press('Enter');
      await expect(caseHeading(page, name)).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(grid(page)).toBeFocused();
      await expect(selectedRow(page)).toContainText(name);
    }
  }
  expect(seen.size).toBe(20);
  await page.keyboard.press('k');
  await expect(selectedRow(page)).not.toContainText([...seen].at(-1) as string);
  expect(await page.evaluate(() => (globalThis as { triageMarker?: string }).triageMarker)).toBe('same page');

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Next case');
  await expect(help).toContainText('Open the selected case');
  await expect(help).toContainText('Back to the list, at the same row');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
});

test('each case has an address: a deep link opens it, back and forward go through the cases', async ({
  page,
  app,
}) => {
  const uma = await app.sandbox.createCustomer('Uma', 'Underwood');
  const vic = await app.sandbox.createCustomer('suspended', 'Vance');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(2);

  await caseRow(page, /Uma Underwood/).click();
  await expect(caseHeading(page, 'Uma Underwood')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/queue/all/${uma.id}$`));
  await caseRow(page, /suspended Vance/).click();
  await expect(caseHeading(page, 'suspended Vance')).toBeVisible();

  await page.goBack();
  await expect(caseHeading(page, 'Uma Underwood')).toBeVisible();
  await expect(caseRow(page, /Uma Underwood/)).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(caseHeading(page, 'suspended Vance')).toBeVisible();

  const origin = new URL(app.launchUrl).origin;
  await page.goto(`${origin}/#/queue/suspended/${vic.id}`);
  await expect(section(page, 'Suspended')).toHaveAttribute('aria-pressed', 'true');
  await expect(caseHeading(page, 'suspended Vance')).toBeVisible();
  await expect(caseRow(page, /suspended Vance/)).toHaveAttribute('aria-selected', 'true');
});

test('columns sort the queue, and a live change waits under the pointer until shown', async ({
  page,
  app,
}) => {
  await app.sandbox.createCustomer('Wes', 'Zimmer');
  await app.sandbox.createCustomer('Ann', 'Young');
  const { id } = await app.sandbox.createCustomer('document', 'Xu');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(3);

  const header = (name: string) => grid(page).getByRole('columnheader', { name });
  await expect(header('Waiting')).toHaveAttribute('aria-sort', 'descending');
  await header('Name').getByRole('button').click();
  await expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
  await expect(header('Waiting')).not.toHaveAttribute('aria-sort', /.+/);
  await expect(caseRows(page).first()).toContainText('Ann Young');
  await expect(caseRows(page).last()).toContainText('Wes Zimmer');

  await section(page, 'Needs document').click();
  await expect(caseRows(page)).toHaveCount(1);
  // The reviewer's pointer is on the row: the change leaves it where it is, and says so.
  await caseRow(page, /document Xu/).hover();
  await app.sandbox.uploadDocument(id);
  const show = page.getByRole('button', { name: /^1 update — show$/ });
  await expect(show).toBeVisible();
  await expect(caseRows(page)).toHaveCount(1);
  // Shown from the keyboard, the pointer still on the row: the change applies now, by the reviewer's choice.
  await show.focus();
  await page.keyboard.press('Enter');
  await expect(caseRows(page)).toHaveCount(0);
  await expect(show).toBeHidden();
  await expect(section(page, 'Document in review')).toHaveAccessibleName(/^Document in review 1/);
});

test('a case past its ageing target is marked and counted, and the overdue filter finds it', async ({
  page,
  app,
}) => {
  await app.sandbox.createCustomer('retry', 'Yates');
  await app.sandbox.createCustomer('Zoe', 'Zane');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(2);
  await expect(caseRow(page, /retry Yates/)).not.toContainText('Overdue');

  // A day and an hour later by main's clock: past the 24 h target of "Needs retry".
  app.advanceDeskClock(25 * HOUR);
  await page.reload();
  await expect(section(page, 'Needs retry')).toHaveAccessibleName('Needs retry 1 1 overdue');
  await expect(caseRow(page, /retry Yates/)).toContainText('Overdue');
  await expect(caseRow(page, /Zoe Zane/)).not.toContainText('Overdue');

  await page.getByText('Filters').click();
  await page.getByRole('checkbox', { name: 'Overdue' }).check();
  await expect(caseRows(page)).toHaveCount(1);
  await expect(caseRows(page)).toContainText('retry Yates');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(caseRows(page)).toHaveCount(2);
});

test('filters by the date a case was created or last changed', async ({ page, app }) => {
  await app.sandbox.createCustomer('Ada', 'Abbot');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(1);

  const day = (offsetDays: number) =>
    new Date(Date.now() + offsetDays * 24 * HOUR).toISOString().slice(0, 10);
  await page.getByText('Filters').click();
  await page.getByLabel('Created from').fill(day(1));
  await expect(caseRows(page)).toHaveCount(0);
  await page.getByLabel('Created from').fill(day(-1));
  await expect(caseRows(page)).toHaveCount(1);
  await page.getByLabel('Last change to').fill(day(-2));
  await expect(caseRows(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(caseRows(page)).toHaveCount(1);
});

test('the separator between queue and case moves from the keyboard and is remembered', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  const separator = page.getByRole('separator', { name: 'Resize the queue' });
  const before = Number(await separator.getAttribute('aria-valuenow'));
  await separator.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(separator).toHaveAttribute('aria-valuenow', String(before + 48));
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the queue' })).toHaveAttribute(
    'aria-valuenow',
    String(before + 48),
  );
});

test('a case is open from the start: the first row, then the last one looked at; one primary action per state', async ({
  page,
  app,
}) => {
  await app.sandbox.createCustomer('retry', 'Quill');
  await app.sandbox.createCustomer('Vera', 'Voss');
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRows(page)).toHaveCount(2);
  // Nothing clicked: the first row's case is open beside the list, and its row selected.
  const first = (await caseRows(page).first().textContent())?.match(/^(retry Quill|Vera Voss)/)?.[0] ?? '';
  await expect(caseHeading(page, first)).toBeVisible();
  await expect(caseRows(page).first()).toHaveAttribute('aria-selected', 'true');

  const pane = page.getByRole('region', { name: 'Case' });
  await caseRow(page, /retry Quill/).click();
  await expect(caseHeading(page, 'retry Quill')).toBeVisible();
  // The status asks for the retry: it is the one primary action, the rest are secondary.
  await expect(pane.locator('.button-primary')).toHaveCount(1);
  await expect(pane.locator('.button-primary')).toHaveAccessibleName('Retry verification');
  await caseRow(page, /Vera Voss/).click();
  await expect(caseHeading(page, 'Vera Voss')).toBeVisible();
  // Verified: nothing to do, so no primary action at all, and it says so.
  await expect(pane.locator('.button-primary')).toHaveCount(0);
  await expect(pane.getByText('Nothing left to do', { exact: true })).toBeVisible();

  // Opened again at the queue's own address (no case in it), the last case looked at opens.
  const origin = new URL(app.launchUrl).origin;
  await page.goto(`${origin}/#/queue/all`);
  await expect(caseHeading(page, 'Vera Voss')).toBeVisible();
  await expect(page).toHaveURL(/#\/queue\/all\/[0-9a-f-]{36}$/);
});

test('a column is resized from the keyboard by the edge before it, and the width is remembered', async ({
  page,
  app,
}) => {
  await app.sandbox.createCustomer('retry', 'Rowe');
  await page.goto(app.launchUrl);
  const edge = page.getByRole('separator', { name: 'Resize the Status column' });
  const before = Number(await edge.getAttribute('aria-valuenow'));
  await edge.focus();
  // The edge moves left, the column to its right grows.
  await page.keyboard.press('ArrowLeft');
  await expect(edge).toHaveAttribute('aria-valuenow', String(before + 16));
  const header = grid(page).getByRole('columnheader', { name: 'Status' });
  const width = (await header.boundingBox())?.width ?? 0;
  await page.reload();
  await expect(page.getByRole('separator', { name: 'Resize the Status column' })).toHaveAttribute(
    'aria-valuenow',
    String(before + 16),
  );
  await expect.poll(async () => Math.round((await header.boundingBox())?.width ?? 0)).toBe(Math.round(width));
});
