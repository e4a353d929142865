import type { Page } from '@playwright/test';

/** The queue's grid, its case rows (the header row aside) and one case row by its accessible name. */
export const grid = (page: Page) => page.getByRole('grid', { name: 'Customers' });
export const caseRows = (page: Page) =>
  grid(page)
    .getByRole('row')
    .filter({ has: page.getByRole('gridcell') });
export const caseRow = (page: Page, name: string | RegExp) => caseRows(page).filter({ hasText: name });
export const selectedRow = (page: Page) => grid(page).getByRole('row', { selected: true });
export const section = (page: Page, title: string) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: new RegExp(`^${title}`) });
export const caseHeading = (page: Page, name: string) =>
  page.getByRole('region', { name: 'Case' }).getByRole('heading', { level: 2, name });
