import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { PageGlobals } from './fixtures.ts';
import { type CaseApp, expect, test } from './support/case-fixtures.ts';
import { copied, recordClipboard } from './support/clipboard.ts';
import { uploadPassportFromDesk } from './support/documents-helpers.ts';
import { caseRow, caseRows } from './support/queue-helpers.ts';

/** The case panel, notes, the timeline, the Audit screen and its exports, driven as a reviewer would. */

const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });
const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name });

/** axe-core on one part of the screen (this spec's own): no violations. */
async function expectAccessible(page: Page, selector: string) {
  const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
  expect(violations.map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target).join(' ')}`)).toEqual(
    [],
  );
}

/** A customer on the sandbox, known to Vetted, opened in the case panel. */
async function openCase(page: Page, app: CaseApp, firstName: string, lastName: string): Promise<string> {
  const { id } = await app.sandbox.createCustomer(firstName, lastName);
  await page.goto(app.launchUrl);
  await page.evaluate(async (ref) => {
    await (globalThis as PageGlobals).vetted?.customers.add({ ref });
  }, id);
  await caseRow(page, lastName).click();
  await expect(page.getByRole('heading', { level: 2, name: `${firstName} ${lastName}` })).toBeVisible();
  return id;
}

test('the case header shows the customer ID and copies it, saying so', async ({ page, app }) => {
  await recordClipboard(page);
  const id = await openCase(page, app, 'retry', 'Quist');
  await expect(page.getByText(id, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Needs retry for/)).toBeVisible();

  await page.getByRole('button', { name: 'Copy customer ID' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Customer ID copied.' })).toBeVisible();
  await expect.poll(() => copied(page)).toBe(id);

  // And from the keyboard: c copies it again.
  await page.evaluate(() => {
    (globalThis as { copiedText?: string }).copiedText = '';
  });
  await page.getByRole('heading', { level: 2, name: 'retry Quist' }).focus();
  await page.keyboard.press('c');
  await expect.poll(() => copied(page)).toBe(id);
  // It lays out in a narrow pane: nothing wider than the panel at about 480 px. The queue at its narrowest
  // (Home on the splitter) beside the sections, and a window just wide enough for all three, give the
  // case that pane.
  await page.getByRole('separator', { name: 'Resize the queue' }).press('Home');
  await page.setViewportSize({ width: 1110, height: 900 });
  const { overflow, width } = await page.evaluate(() => {
    const panel = (
      globalThis as unknown as {
        document: { querySelector(s: string): { scrollWidth: number; clientWidth: number } };
      }
    ).document.querySelector('article.case');
    return { overflow: panel.scrollWidth - panel.clientWidth, width: panel.clientWidth };
  });
  expect(width).toBeLessThanOrEqual(520);
  expect(overflow).toBeLessThanOrEqual(0);
  // The actions show their keys, and say why when they are not available.
  await expect(page.getByRole('button', { name: 'Retry verification' })).toHaveAttribute(
    'aria-keyshortcuts',
    'r',
  );
  await page.getByRole('heading', { level: 2, name: 'retry Quist' }).focus();
  await page.keyboard.press('u');
  await expect(
    page.getByText('Documents can be uploaded only while the service asks for one.').first(),
  ).toBeVisible();
});

test('a note written with n lands in the timeline and the audit log, and survives a restart', async ({
  page,
  app,
}) => {
  const id = await openCase(page, app, 'document', 'Rossi');
  await page.getByRole('heading', { level: 2, name: 'document Rossi' }).focus();
  await page.keyboard.press('n');
  const dialog = page.getByRole('dialog', { name: 'Write a note' });
  const field = dialog.getByLabel('Note');
  await expect(field).toBeFocused();
  await field.fill('Asked for a sharper passport photo.\nCall back on Monday.');
  await expect(dialog.getByText('56 of 4,000 characters')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save note' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Note saved.')).toBeVisible();

  const note = timeline(page)
    .getByRole('listitem')
    .filter({ hasText: 'Asked for a sharper passport photo.' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('Call back on Monday.');
  const newest = timeline(page).getByRole('listitem').first();
  await expect(newest).toContainText('Asked for a sharper passport photo.');
  await expectAccessible(page, 'article.case');

  await nav(page, 'Audit').click();
  await expect(page.getByRole('heading', { level: 2, name: 'Audit' })).toBeVisible();
  const audit = page.getByRole('table', { name: 'Audit log' });
  const written = audit.getByRole('row').filter({ hasText: 'Note written' });
  await expect(written).toHaveCount(1);
  await expect(written).toContainText(id.slice(0, 8));

  await app.restart();
  await page.goto(app.launchUrl);
  await caseRow(page, 'Rossi').click();
  await expect(note).toBeVisible();
  await nav(page, 'Audit').click();
  await expect(audit.getByRole('row').filter({ hasText: 'Note written' })).toHaveCount(1);
});

test('the audit screen filters by action and customer, and exports CSV and JSON Lines', async ({
  page,
  app,
}) => {
  const id = await openCase(page, app, 'document', 'Sato');
  await page.getByRole('button', { name: 'Write a note' }).click();
  await page.getByRole('dialog', { name: 'Write a note' }).getByLabel('Note').fill('First look done.');
  await page.getByRole('button', { name: 'Save note' }).click();
  await expect(page.getByText('Note saved.')).toBeVisible();

  await nav(page, 'Audit').click();
  const audit = page.getByRole('table', { name: 'Audit log' });
  await expect(audit.getByRole('row').filter({ hasText: 'Customer added by id' })).toHaveCount(1);
  await page.getByLabel('Action').selectOption({ label: 'Note written' });
  await expect(page.getByText('1 entry match')).toBeVisible();
  await expect(audit.getByRole('row').filter({ hasText: 'Customer added by id' })).toHaveCount(0);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^vetted-audit-note\.add-.*\.csv$/);
  const csvText = readFileSync((await csv.path()) ?? '', 'utf8');
  expect(csvText.split('\r\n')[0]).toBe('Entry,When,Who,What,Action,Customer,Outcome,Detail,Chain hash');
  expect(csvText).toContain(`Note written,note.add,${id}`);
  await expect(page.getByText('Exported 1 entry.')).toBeVisible();
  await expectAccessible(page, 'section.audit');

  await page.getByLabel('Action').selectOption('');
  await page.getByLabel('Customer ID').fill(id);
  await expect(audit.getByRole('row').filter({ hasText: 'Customer added by id' })).toHaveCount(1);
  const jsonlDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON Lines' }).click();
  const jsonl = readFileSync((await (await jsonlDownload).path()) ?? '', 'utf8');
  const records = jsonl
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { customerId?: string; head?: { filter: unknown } });
  // The entries, then the audit chain's head (for `npm run team -- verify-audit --file`).
  const head = records.pop();
  expect(records.length).toBeGreaterThanOrEqual(2);
  expect(records.every((row) => row.customerId === id)).toBe(true);
  expect(head?.head?.filter).toEqual({ customerId: id });
});

test('a document uploaded from the desk opens in the viewer, zooms and rotates by key, and can be removed', async ({
  page,
  app,
}) => {
  const id = await openCase(page, app, 'document', 'Tanaka');
  await uploadPassportFromDesk(page, id);
  const images = page.getByRole('region', { name: 'Documents sent from this desk' });
  const thumbnail = images.getByRole('button', { name: /^View Passport, uploaded/ });
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail.locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/);

  await thumbnail.focus();
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog', { name: /^Passport, uploaded/ });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Zoom in (+)' })).toBeFocused();
  const image = viewer.getByRole('img');
  await page.keyboard.press('+');
  await page.keyboard.press('r');
  await expect(image).toHaveAttribute('data-zoom', '150');
  await expect(image).toHaveAttribute('data-rotation', '90');
  await expect(viewer.getByText('150%, rotated 90°')).toBeVisible();
  await expectAccessible(page, 'dialog[open]');
  // Focus stays in the modal viewer.
  for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
  await expect(viewer.locator(':focus')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  await images.getByRole('button', { name: 'Remove stored image' }).click();
  await page
    .getByRole('dialog', { name: 'Remove the stored image?' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(images).toBeHidden();
  await expect(page.getByText('Stored image removed.')).toBeVisible();
  await expect(
    timeline(page).getByRole('listitem').filter({ hasText: 'Stored document image removed' }),
  ).toBeVisible();
});

test('the queue view exports as CSV, names masked unless revealed with a reason (audited)', async ({
  page,
  app,
}) => {
  const { id } = await app.sandbox.createCustomer('retry', 'Umberto');
  await page.goto(app.launchUrl);
  await page.evaluate(async (ref) => {
    await (globalThis as PageGlobals).vetted?.customers.add({ ref });
  }, id);
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('umberto');
  await expect(caseRows(page)).toHaveCount(1);

  const masked = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export view (CSV)' }).click();
  const maskedText = readFileSync((await (await masked).path()) ?? '', 'utf8');
  expect(maskedText).toContain(`${id},r••• U•••,`);
  expect(maskedText).not.toContain('Umberto');
  await expect(page.getByText('Exported 1 row.')).toBeVisible();

  await page.getByRole('button', { name: 'Export with names…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export the view with names in full' });
  await expectAccessible(page, 'dialog[open]');
  await dialog.getByRole('button', { name: 'Export CSV' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Say why the export needs names in full (at least 5 characters).',
  );
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Quarterly check by compliance');
  const full = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export CSV' }).click();
  const fullText = readFileSync((await (await full).path()) ?? '', 'utf8');
  expect(fullText).toContain(`${id},retry Umberto,`);
  await expect(dialog).toBeHidden();

  await nav(page, 'Audit').click();
  const reveal = page
    .getByRole('table', { name: 'Audit log' })
    .getByRole('row')
    .filter({ hasText: 'Personal data revealed' });
  await expect(reveal).toContainText('Quarterly check by compliance');
});
