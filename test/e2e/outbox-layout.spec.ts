import type { Locator, Page } from '@playwright/test';
import { expectSaved, fillPerson, person, startNewCustomer } from './support/drafts-helpers.ts';
import { expect, test } from './support/queue-fixtures.ts';

/** The outbox beside the form on a common laptop screen, at its busiest: drafts, a queued one, the banner, a bar. */

test.use({ viewport: { width: 1366, height: 768 } });

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('Not laid out.');
  return box;
}

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** One look at the panel: its box and each element's, all taken at the same instant. */
interface Layout {
  outer: Box;
  children: { html: string; box: Box; cut: boolean }[];
}

/** What the page's elements offer that the measure reads (this file is typed without the DOM's types). */
interface PageElement {
  tagName: string;
  outerHTML: string;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): Box;
  getClientRects(): { length: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
}

async function layoutOf(panel: Locator): Promise<Layout> {
  return panel.evaluate((node) => {
    const root = node as unknown as PageElement;
    const boxOf = (e: PageElement): Box => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    };
    const view = globalThis as unknown as { getComputedStyle(e: PageElement): { overflowX: string } };
    // As Playwright's `:visible` for p, button and span; headings, bars and list items always count.
    const counts = (e: PageElement) =>
      ['LI', 'H3', 'PROGRESS'].includes(e.tagName) || e.getClientRects().length > 0;
    const children = [...root.querySelectorAll('h3, p, button, progress, li, span')].filter(counts);
    return {
      outer: boxOf(root),
      children: children.map((e) => ({
        html: e.outerHTML.slice(0, 80),
        box: boxOf(e),
        cut: e.scrollWidth > e.clientWidth + 1 && view.getComputedStyle(e).overflowX !== 'visible',
      })),
    };
  });
}

/**
 * Every element of the panel lies inside it, and nothing in it is cut off by its own overflow. Measured in
 * one go (the panel's lines change as drafts do), and looked at again until it holds or the time is up: a
 * layout that is really wrong never holds.
 */
async function expectNothingClipped(page: Page, panel: Locator): Promise<void> {
  await expect(async () => {
    const { outer, children } = await layoutOf(panel);
    expect(children.length).toBeGreaterThan(5);
    for (const child of children) {
      expect(inside(child.box, outer), `${child.html} inside the panel`).toBe(true);
      expect(child.cut, `no text cut off: ${child.html}`).toBe(false);
    }
    expect(outer.x + outer.width).toBeLessThanOrEqual(page.viewportSize()!.width);
  }).toPass({ timeout: 15_000 });
}

test('the outbox lays out at 1366×768, nothing clipped or overlapping', async ({ page, app }) => {
  await page.goto(app.launchUrl);
  for (const last of ['Ames', 'Brook']) {
    const form = await startNewCustomer(page);
    await fillPerson(form, person('Quinn', last));
    await expectSaved(page);
  }
  const form = await startNewCustomer(page);
  await fillPerson(form, person('Quinn', 'Castellano-Whitfield'));
  await app.sandbox.setFaults({ rate: 1, kinds: ['reset'] });
  await form.getByRole('button', { name: 'Submit', exact: true }).click();

  const outbox = page.getByRole('complementary', { name: 'Drafts & outbox' });
  await expect(outbox.getByRole('status').filter({ hasText: 'The service cannot be reached' })).toBeVisible();
  await expect(outbox).toContainText('Waiting: 2 drafts, 1 queued.');
  await expect(outbox.getByRole('progressbar')).toBeVisible();

  await expectNothingClipped(page, outbox);
  // The bar is a bar, not a sliver squeezed between words; its label reads on one line.
  const bar = await boxOf(outbox.getByRole('progressbar'));
  expect(bar.width).toBeGreaterThan((await boxOf(outbox)).width / 2);
  const label = await boxOf(outbox.getByText('Sending drafts to the service', { exact: true }));
  expect(label.height).toBeLessThan(30);
  // The banner is said once, not again beside the bar.
  await expect(page.getByText(/cannot be reached|could not be reached/)).toHaveCount(1);
  expect(overlap(await boxOf(form), await boxOf(outbox))).toBe(false);
  // The panel fits the window's height, so that Submit all is in view beside the form.
  await expect(outbox.getByRole('button', { name: 'Submit all' })).toBeInViewport();
  await app.sandbox.setFaults({ rate: 0 });
});
