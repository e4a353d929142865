import { randomUUID } from 'node:crypto';
import { expect, type Locator, type Page } from '@playwright/test';
import { samplePerson } from '#test/support/person.ts';

/** What the drafts and retry e2e tests share: a person to type in, the form, the sandbox's faults. */

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  address1: string;
  city: string;
  state: string;
  postalCode: string;
  dateOfBirth: string;
  tin: string;
}

/** A valid new customer; the sandbox decides its status by its first name (`retry`, else verified). */
export function person(firstName: string, lastName: string): Person {
  const email = `${firstName}.${lastName}.${randomUUID().slice(0, 8)}@example.com`.toLowerCase();
  return samplePerson(firstName, lastName, email);
}

export const draftForm = (page: Page) => page.getByRole('form', { name: 'New customer' });
/** Where the draft stands: draft → queued → sending → created / rejected / needs attention. */
export const draftState = (page: Page) => draftForm(page).getByRole('region', { name: 'State' });
export const textbox = (scope: Locator, name: string) => scope.getByRole('textbox', { name, exact: true });

/** The fields of the form, by their labels. */
export const FIELD_LABELS = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  address1: 'Address line 1',
  city: 'City',
  postalCode: 'Postal code',
  dateOfBirth: 'Date of birth',
  tin: 'SSN, last four digits',
} as const;

export async function startNewCustomer(page: Page): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'New customer' }).click();
  const form = draftForm(page);
  await expect(form).toBeVisible();
  return form;
}

/** Types the person into the form, as a reviewer would (the draft saves itself on the way). */
export async function fillPerson(form: Locator, who: Person): Promise<void> {
  for (const [field, label] of Object.entries(FIELD_LABELS)) {
    if (field !== 'tin') await textbox(form, label).fill(who[field as keyof Person]);
  }
  await form.getByRole('combobox', { name: 'State' }).selectOption(who.state);
  await textbox(form, FIELD_LABELS.tin).fill(who.tin);
}

export async function expectSaved(page: Page): Promise<void> {
  await expect(draftState(page)).toContainText('All changes saved');
}

/** The draft's state as its state line says it ("Queued — …"), not as the steps list it. */
export async function expectState(page: Page, label: string, options?: { timeout: number }): Promise<void> {
  await expect(draftState(page).getByText(new RegExp(`^${label} —`))).toBeVisible(options);
}

/** A new customer typed in and submitted, then opened from its queue section once the service made it. */
export async function createThroughDraft(page: Page, who: Person, sectionTitle: string): Promise<void> {
  const form = await startNewCustomer(page);
  await fillPerson(form, who);
  await form.getByRole('button', { name: 'Submit', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' }).click();
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('button', { name: new RegExp(`^${sectionTitle}`) })
    .click();
  const name = `${who.firstName} ${who.lastName}`;
  await page
    .getByRole('grid', { name: 'Customers' })
    .getByRole('row', { name: new RegExp(name) })
    .click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}
