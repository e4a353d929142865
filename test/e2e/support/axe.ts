import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: the rules axe checks on every screen. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeOptions {
  /** Only this part of the page (a CSS selector), e.g. an open dialog. */
  include?: string;
  /** What the screen is, for the failure message. */
  screen?: string;
}

/**
 * Runs axe-core on the page as it is now and fails, listing each violation with the elements it
 * names, unless there is none. Call it once the screen has settled (after a web-first assertion
 * on what it shows), in each colour scheme that matters: `page.emulateMedia({ colorScheme })`.
 */
export async function expectNoAxeViolations(page: Page, options: AxeOptions = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(TAGS);
  if (options.include) builder = builder.include(options.include);
  const { violations } = await builder.analyze();
  const found = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n` +
      violation.nodes.map((node) => `    ${node.target.join(' ')}: ${node.failureSummary ?? ''}`).join('\n'),
  );
  expect(found, `axe on ${options.screen ?? page.url()}`).toEqual([]);
}
