import type { Page } from '@playwright/test';
import { recordProgress } from './support/documents-helpers.ts';
import {
  draftForm,
  draftState,
  expectSaved,
  expectState,
  FIELD_LABELS,
  fillPerson,
  person,
  startNewCustomer,
  textbox,
} from './support/drafts-helpers.ts';
import { expect, test } from './support/queue-fixtures.ts';

/** New customers: the form and its rules, autosave, the outbox online and offline, duplicates. */

const list = (page: Page) => page.getByRole('grid', { name: 'Customers' });
const section = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${title}`) });
/** The outbox waits out its backoff before sending again: longer than one look at the screen. */
const OUTBOX_DRAINS = { timeout: 30_000 };

test('the form checks as one types, focuses the first error on submit, and a draft comes back as left', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  const form = await startNewCustomer(page);
  const email = textbox(form, FIELD_LABELS.email);
  const birth = textbox(form, FIELD_LABELS.dateOfBirth);
  const postal = textbox(form, FIELD_LABELS.postalCode);

  await email.fill('not-an-email');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/Enter a valid e-mail address/);
  await birth.fill('2001-02-30');
  await expect(birth).toHaveAttribute('aria-invalid', 'true');
  await expect(birth).toHaveAccessibleDescription(
    'Date of birth must be a real date, YYYY-MM-DD, age 18 to 125.',
  );
  await postal.fill('1234');
  await expect(postal).toHaveAttribute('aria-invalid', 'true');
  // Untouched fields say their rule, not an error, until the reviewer submits.
  await expect(textbox(form, FIELD_LABELS.firstName)).not.toHaveAttribute('aria-invalid');

  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(textbox(form, FIELD_LABELS.firstName)).toBeFocused();
  await expect(textbox(form, FIELD_LABELS.firstName)).toHaveAttribute('aria-invalid', 'true');
  await expect(textbox(form, FIELD_LABELS.firstName)).toHaveAccessibleDescription(/Required/);
  await expect(form.getByRole('combobox', { name: 'State' })).toHaveAttribute('aria-invalid', 'true');

  const who = person('Nora', 'Nolan');
  await fillPerson(form, who);
  await expect(email).not.toHaveAttribute('aria-invalid');
  await expect(birth).not.toHaveAttribute('aria-invalid');
  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(0);
  await expectState(page, 'Draft');
  await expectSaved(page);

  // Reopening Vetted: the draft is in the queue's Drafts section, exactly as it was left.
  await page.reload();
  await section(page, 'Drafts & outbox').click();
  await list(page)
    .getByRole('row', { name: /Nora Nolan/ })
    .click();
  await expect(draftForm(page)).toBeVisible();
  for (const [field, label] of Object.entries(FIELD_LABELS)) {
    await expect(textbox(draftForm(page), label)).toHaveValue(who[field as keyof typeof who]);
  }
  await expect(draftForm(page).getByRole('combobox', { name: 'State' })).toHaveValue('IL');

  // Discarding asks first; "Keep draft" keeps it.
  await draftForm(page).getByRole('button', { name: 'Discard draft…' }).click();
  const confirm = page.getByRole('dialog', { name: 'Discard this draft?' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Keep draft' }).click();
  await expect(confirm).toBeHidden();
  await expect(textbox(draftForm(page), FIELD_LABELS.firstName)).toHaveValue('Nora');

  await draftForm(page).getByRole('button', { name: 'Discard draft…' }).click();
  await confirm.getByRole('button', { name: 'Discard draft' }).click();
  await expect(page.getByRole('heading', { name: 'Queue' })).toBeVisible();
  await expect(section(page, 'Drafts & outbox')).toHaveAccessibleName('Drafts & outbox 0');
});

test('submitted while the service is unreachable, a draft waits queued and is created once it answers', async ({
  page,
  app,
}) => {
  await page.goto(app.launchUrl);
  const form = await startNewCustomer(page);
  const who = person('Olive', 'Ortiz');
  await fillPerson(form, who);

  await app.sandbox.setFaults({ rate: 1, kinds: ['reset'] });
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await expect(draftState(page)).toContainText(
    'Queued until the service answers. Vetted will send it again by itself',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  const outbox = page.getByRole('complementary', { name: 'Drafts & outbox' });
  // One banner says the service cannot be reached: the outbox's, not the draft's nor the progress bar's.
  await expect(page.getByText(/cannot be reached|could not be reached/)).toHaveCount(1);
  await expect(outbox.getByRole('status').filter({ hasText: 'The service cannot be reached' })).toBeVisible();
  await expect(outbox.getByRole('listitem').filter({ hasText: 'Olive Ortiz' })).toContainText('Queued');
  await expectState(page, 'Queued');
  // A queued draft is what was sent: it can no longer be changed.
  await expect(textbox(form, FIELD_LABELS.firstName)).toBeDisabled();

  await app.sandbox.setFaults({ rate: 0 });
  await expectState(page, 'Created', OUTBOX_DRAINS);
  await expect(page.getByRole('status').filter({ hasText: 'Online' })).toBeVisible();

  await form.getByRole('button', { name: 'Open customer' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Olive Ortiz' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Case' }).getByText(who.email)).toBeVisible();
  await page.getByRole('button', { name: 'Back to queue' }).click();
  await section(page, 'Verified').click();
  await expect(list(page).getByRole('row', { name: /Olive Ortiz/ })).toContainText('Verified');
  await expect(section(page, 'Drafts & outbox')).toHaveAccessibleName('Drafts & outbox 0');
});

test('"Submit all" sends every ready draft with a progress bar', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  const drafts = 6;
  for (let i = 0; i < drafts; i++) {
    const form = await startNewCustomer(page);
    await fillPerson(form, person('Paula', `Price${String.fromCharCode(65 + i)}`));
    await expectSaved(page);
  }
  const outbox = page.getByRole('complementary', { name: 'Drafts & outbox' });
  await expect(outbox).toContainText(`Waiting: ${drafts} drafts.`);
  await expect(
    outbox.getByRole('list', { name: 'Drafts not created yet' }).getByRole('listitem'),
  ).toHaveCount(drafts);

  const progressSeen = await recordProgress(page);
  await outbox.getByRole('button', { name: 'Submit all' }).click();
  await expect(outbox).toContainText(`Queued ${drafts} drafts.`);
  await expect(outbox).toContainText(`Sent ${drafts} drafts to the service.`);
  // Nothing left to send: Submit all says why it does nothing.
  await expect(outbox.getByRole('button', { name: 'Submit all' })).toHaveAttribute('aria-disabled', 'true');
  await expect(outbox.getByRole('button', { name: 'Submit all' })).toHaveAccessibleDescription(
    /^No draft to submit/,
  );
  const bars = (await progressSeen()).filter((bar) => bar.label === 'Sending drafts to the service');
  expect(bars.length).toBeGreaterThan(0);
  expect(bars.every((bar) => bar.max === drafts)).toBe(true);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
  await expect(section(page, 'Verified')).toHaveAccessibleName(`Verified ${drafts}`);
});

test('a Duplicate e-mail rejection shows on the field and offers to link the existing customer', async ({
  page,
  app,
}) => {
  const existing = await app.sandbox.createCustomer('Quinn', 'Quade');
  await page.goto(app.launchUrl);
  const form = await startNewCustomer(page);
  await fillPerson(form, { ...person('Quinn', 'Quade'), email: existing.email });
  await form.getByRole('button', { name: 'Submit', exact: true }).click();

  await expectState(page, 'Needs correction');
  const email = textbox(form, FIELD_LABELS.email);
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/already exists/);
  await form.getByRole('button', { name: 'Link to the existing customer' }).click();
  await expectState(page, 'Created');
  await form.getByRole('button', { name: 'Open customer' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Quinn Quade' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Case' }).getByText(existing.email)).toBeVisible();
});
