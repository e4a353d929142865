import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  dropFiles,
  openDocumentCustomer,
  sampleFile,
  uploadPassportFromDesk,
} from '#test/e2e/support/documents-helpers.ts';
import { createThroughDraft, person } from '#test/e2e/support/drafts-helpers.ts';
import { expect, test } from '#test/e2e/support/queue-fixtures.ts';
import { caseRow } from '#test/e2e/support/queue-helpers.ts';

/**
 * The README's screenshots, on the built-in sandbox at 1440×900 in the light scheme (and the split view in
 * the dark one too): each one waits for what it shows, so a screenshot never catches a screen half drawn.
 */

const OUT = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
async function shoot(page: Page, name: string): Promise<void> {
  // No caret blinking or transition half-way: the same picture on every run.
  await page.screenshot({ path: path.join(OUT, `${name}.png`), animations: 'disabled', caret: 'hide' });
}

const PEOPLE = [
  ['retry', 'Okafor'],
  ['document', 'Lindqvist'],
  ['retry', 'Marchetti'],
  ['document', 'Haddad'],
  ['Verified', 'Nakamura'],
  ['suspended', 'Brennan'],
  ['document', 'Castillo'],
  ['retry', 'Fischer'],
] as const;

test('the split view, and a case with its timeline', async ({ page, app }) => {
  const ids: Record<string, string> = {};
  for (const [first, last] of PEOPLE) ids[last] = (await app.sandbox.createCustomer(first, last)).id;
  await page.goto(app.launchUrl);
  await page.getByRole('button', { name: 'Import from service' }).click();
  await expect(caseRow(page, 'Fischer')).toBeVisible();

  await caseRow(page, 'Lindqvist').click();
  await expect(page.getByRole('heading', { level: 2, name: 'document Lindqvist' })).toBeVisible();
  await uploadPassportFromDesk(page, ids.Lindqvist ?? '');
  await page.getByRole('button', { name: 'Write a note' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a note' });
  await dialog.getByLabel('Note').fill('Passport photo is sharp; the address matches the utility bill.');
  await dialog.getByRole('button', { name: 'Save note' }).click();
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Passport photo is sharp' })).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: 'Documents sent from this desk' })
      .getByRole('button', { name: /^View Passport, uploaded/ }),
  ).toBeVisible();
  await page.mouse.move(2, 2);
  await shoot(page, 'split-view');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'split-view-dark');
  await page.emulateMedia({ colorScheme: 'light' });

  await timeline.scrollIntoViewIfNeeded();
  await shoot(page, 'case-timeline');
});

test('the retry form', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  await createThroughDraft(page, person('retry', 'Ortega'), 'Needs retry');
  await page.getByRole('button', { name: 'Retry verification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry verification' });
  await dialog.getByLabel('Social Security number').fill('123-45-6789');
  await expect(dialog.getByLabel('Social Security number')).toHaveValue('123-45-6789');
  await shoot(page, 'retry-form');
});

test('an upload', async ({ page, app }) => {
  await openDocumentCustomer(page, app, 'Achterberg');
  const panel = page.getByRole('region', { name: 'ID documents' });
  await dropFiles(page, panel.getByRole('group', { name: 'Drop ID photos here' }), [
    sampleFile('passport.png'),
  ]);
  const card = panel.getByRole('listitem', { name: 'passport.png' });
  await card.getByLabel('Document type').selectOption({ label: 'Passport' });
  await card.getByRole('button', { name: 'Upload' }).click();
  await expect(card.getByRole('status')).toContainText('Uploaded');
  await expect(panel.getByRole('table', { name: /Documents on the service/ })).toContainText(
    'Pending review',
  );
  await panel.scrollIntoViewIfNeeded();
  await shoot(page, 'upload');
});
