import type { Page } from '@playwright/test';

/**
 * Keeps what the page writes to the clipboard where a test can read it: the page's permissions policy keeps
 * pages (and tests) from reading the clipboard back. Call before the page loads.
 */
export async function recordClipboard(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // The test project has no DOM types: the little of the page this needs, typed here.
    const { clipboard } = (
      globalThis as unknown as { navigator: { clipboard: { writeText(text: string): Promise<void> } } }
    ).navigator;
    const write = clipboard.writeText.bind(clipboard);
    clipboard.writeText = async (text: string) => {
      await write(text);
      (globalThis as { copiedText?: string }).copiedText = text;
    };
  });
}

/** What the page last put on the clipboard (recordClipboard), or '' before anything. */
export const copied = (page: Page) =>
  page.evaluate(() => (globalThis as { copiedText?: string }).copiedText ?? '');
