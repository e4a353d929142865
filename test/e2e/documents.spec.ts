import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  dropFiles,
  dropOutsideZone,
  openDocumentCustomer,
  recordProgress,
  SAMPLES_DIR,
  sampleFile,
} from './support/documents-helpers.ts';
import { expect, test } from './support/queue-fixtures.ts';

/** ID documents on the customer view, driven as a reviewer would, on the built-in sandbox. */

// Without webhooks the panel polls while a review is awaited; this bounds the wait for one poll.
const REVIEW_SEEN = { timeout: 20_000 };

const panel = (page: Page) => page.getByRole('region', { name: 'ID documents' });
const dropZone = (page: Page) => panel(page).getByRole('group', { name: 'Drop ID photos here' });
const documentsTable = (page: Page) => panel(page).getByRole('table', { name: /Documents on the service/ });

test('a dropped passport is checked, typed, uploaded with progress, and its acceptance shown', async ({
  page,
  app,
}) => {
  await openDocumentCustomer(page, app, 'Ngata');
  await expect(panel(page).getByText('No documents uploaded for this customer yet.')).toBeVisible();

  const back = { ...sampleFile('passport.png'), name: 'passport-back.png' };
  await dropFiles(page, dropZone(page), [sampleFile('passport.png'), back]);
  const card = panel(page).getByRole('listitem', { name: 'passport.png' });
  const backCard = panel(page).getByRole('listitem', { name: 'passport-back.png' });
  await expect(card.getByRole('img', { name: 'Preview of passport.png' })).toBeVisible();
  await expect(card).toContainText('2.7 KB');

  // No type chosen yet: the check says so, and nothing is sent.
  await card.getByRole('button', { name: 'Upload' }).click();
  await expect(card.getByRole('alert')).toHaveText('Choose what kind of document this is.');

  await card.getByLabel('Document type').selectOption({ label: 'Passport' });
  const progressSeen = await recordProgress(page);
  await card.getByRole('button', { name: 'Try again' }).click();
  await expect(card.getByRole('status')).toContainText('Uploaded');
  await expect(card.getByRole('link', { name: 'Document on the service' })).toHaveAttribute(
    'href',
    new RegExp(`^${app.sandbox.baseUrl}/documents/`),
  );
  const bars = (await progressSeen()).filter((bar) => bar.label === 'Uploading passport.png');
  expect(bars.some((bar) => bar.max > 1 && bar.value === bar.max)).toBe(true);

  const row = documentsTable(page).getByRole('row', { name: /Passport/ });
  await expect(row).toContainText('Pending review');

  await app.sandbox.advanceClock(120);
  await expect(row).toContainText('Accepted', REVIEW_SEEN);
  await expect(card.getByRole('status')).toContainText('Reviewed: Accepted');
  await expect(page.getByText(/^Verified for/)).toBeVisible();
  await expect(dropZone(page)).toHaveCount(0);

  // The second file, kept all along, is now refused: the customer no longer needs a document.
  await backCard.getByLabel('Document type').selectOption('passport');
  await backCard.getByRole('button', { name: 'Upload' }).click();
  await expect(backCard.getByRole('alert')).toContainText(
    'now “verified” and no longer asked for a document',
  );
  await expect(backCard.getByRole('button', { name: 'Try again' })).toBeVisible();
});

test('a blurry photo chosen from the keyboard is rejected, with the reason in words and as a code', async ({
  page,
  app,
}) => {
  await openDocumentCustomer(page, app, 'Okoye');
  const chooser = page.waitForEvent('filechooser');
  await dropZone(page).getByRole('button', { name: 'Choose file' }).focus();
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(path.join(SAMPLES_DIR, 'passport-blurry-fail.png'));

  const card = panel(page).getByRole('listitem', { name: 'passport-blurry-fail.png' });
  await card.getByLabel('Document type').selectOption('license');
  await card.getByRole('button', { name: 'Upload' }).click();
  await expect(card.getByRole('status')).toContainText('Uploaded');

  await app.sandbox.advanceClock(120);
  // A refresh (as a webhook would) pushes the change to the panel without waiting for its poll.
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  const row = documentsTable(page).getByRole('row', { name: /Driver’s license/ });
  await expect(row).toContainText('Rejected');
  await expect(row).toContainText('The photo could not be read');
  await expect(row.getByText('ScanNotReadable')).toBeVisible();
  // Still asked for a document: the reviewer can drop another.
  await expect(dropZone(page)).toBeVisible();

  // Back in "Needs document", with the reason on the row.
  await page.getByRole('button', { name: 'Back to queue' }).click();
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: /^Needs document/ })
    .click();
  await expect(
    page.getByRole('grid', { name: 'Customers' }).getByRole('row', { name: /document Okoye/ }),
  ).toContainText('The photo could not be read');
});

test('a text file renamed .png is refused by its content, and a drop outside the zone does nothing', async ({
  page,
  app,
}) => {
  await openDocumentCustomer(page, app, 'Petrov');
  const notes = { name: 'notes.png', type: 'image/png', bytes: Buffer.from('Meeting notes, not a photo.\n') };
  await dropFiles(page, dropZone(page), [notes]);

  const card = panel(page).getByRole('listitem', { name: 'notes.png' });
  await expect(card.getByRole('alert')).toContainText('not a JPEG or PNG image');
  await expect(card.getByRole('img')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Upload' })).toHaveCount(0);
  await card.getByRole('button', { name: 'Remove' }).click();
  await expect(card).toHaveCount(0);

  const url = page.url();
  const prevented = await dropOutsideZone(page, [sampleFile('passport.png')]);
  expect(prevented).toBe(true);
  expect(page.url()).toBe(url);
  await expect(panel(page).getByRole('listitem')).toHaveCount(0);
});
