import type { Locator, Page } from '@playwright/test';
import { expectSaved, fillPerson, person, startNewCustomer } from './drafts-helpers.ts';
import { expect, test } from './queue-fixtures.ts';

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

/** Every element of the panel lies inside it, and nothing in it is cut off by its own overflow. */
async function expectNothingClipped(page: Page, panel: Locator): Promise<void> {
  const outer = await boxOf(panel);
  const children = panel.locator('h3, p:visible, button:visible, progress, li, span:visible');
  const n = await children.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) {
    const child = children.nth(i);
    const box = await boxOf(child);
    expect(
      inside(box, outer),
      `${await child.evaluate((e) => e.outerHTML.slice(0, 80))} inside the panel`,
    ).toBe(true);
    const cut = await child.evaluate(
      (e) =>
        e.scrollWidth > e.clientWidth + 1 &&
        (globalThis as unknown as { getComputedStyle(e: unknown): { overflowX: string } }).getComputedStyle(e)
          .overflowX !== 'visible',
    );
    expect(cut, 'no text cut off').toBe(false);
  }
  const viewport = page.viewportSize()!;
  expect(outer.x + outer.width).toBeLessThanOrEqual(viewport.width);
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
