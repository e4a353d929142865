import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** The look follows the system: light or dark, forced colours; and the page has Vetted's icon. */

/** The relative luminance of a computed `rgb(…)` colour, 0 (black) to 1 (white). */
async function luminanceOf(
  page: Page,
  selector: string,
  property: 'backgroundColor' | 'color',
): Promise<number> {
  const value = await page
    .locator(selector)
    .first()
    .evaluate((element, name) => {
      const view = element.ownerDocument.defaultView as unknown as {
        getComputedStyle(e: unknown): Record<string, string>;
      };
      return view.getComputedStyle(element)[name] ?? '';
    }, property);
  const [r, g, b] = (value.match(/[\d.]+/g) ?? []).map(Number).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

for (const [colorScheme, light] of [
  ['light', true],
  ['dark', false],
] as const) {
  test(`follows the system’s ${colorScheme} setting`, async ({ page, vetted }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto(vetted.launchUrl);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    const canvas = await luminanceOf(page, 'body', 'backgroundColor');
    const text = await luminanceOf(page, 'body', 'color');
    expect(canvas > 0.5).toBe(light);
    expect(text > 0.5).toBe(!light);
    // Every colour property the styles use has a value in this scheme (one defined by itself has none).
    const properties = await page.evaluate(() => {
      const { document, getComputedStyle } = globalThis as unknown as {
        document: { documentElement: unknown };
        getComputedStyle(e: unknown): { getPropertyValue(name: string): string };
      };
      const style = getComputedStyle(document.documentElement);
      return [
        '--color-canvas',
        '--color-text',
        '--color-text-muted',
        '--color-accent-solid',
        '--color-on-accent',
        '--color-accent-text',
        '--color-danger-fg',
        '--color-success-fg',
        '--color-focus',
      ].map((name) => [name, style.getPropertyValue(name).trim() !== '']);
    });
    expect(properties.filter(([, defined]) => !defined)).toEqual([]);
  });
}

test('forced colours: the current place is marked by more than colour, and focus shows', async ({
  page,
  vetted,
}) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto(vetted.launchUrl);
  const current = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queue' });
  await expect(current).toHaveAttribute('aria-current', 'page');
  await expect(current).toHaveCSS('border-top-width', '2px');
  const other = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Events' });
  await expect(other).toHaveCSS('border-top-width', '1px');
  await other.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(other).toBeFocused();
  await expect(other).toHaveCSS('outline-style', 'solid');
  await expect(other).toHaveCSS('outline-width', '3px');
});

test('the page has Vetted’s icon as its favicon', async ({ page, vetted }) => {
  await page.goto(vetted.launchUrl);
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toMatch(/icon.*\.svg$/);
  const response = await page.request.get(new URL(href ?? '', page.url()).href);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('image/svg+xml');
  expect(await response.text()).toContain('<svg');
});

test('the unlock screen is laid out as a card', async ({ page, vetted }) => {
  await page.route('**/api/invoke/vault.status', (route) =>
    route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ ok: true, value: { state: 'new', reason: 'This computer has no keyring.' } }),
    }),
  );
  await page.goto(vetted.launchUrl);
  const form = page.getByRole('form', { name: 'Choose a passphrase' });
  await expect(form.getByLabel('Confirm passphrase')).toBeVisible();
  const box = (await form.boundingBox())!;
  const viewport = page.viewportSize()!;
  // Centred, and narrower than the window: a card, not a page of bare fields.
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
  expect(box.width).toBeLessThan(viewport.width * 0.6);
  await expect(form).toHaveCSS('border-top-style', 'solid');
  await expect(form.getByRole('button', { name: 'Create vault' })).toHaveCSS(
    'width',
    `${Math.round((await form.getByLabel('Passphrase', { exact: true }).boundingBox())!.width)}px`,
  );
});
