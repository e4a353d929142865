import type { Page } from '@playwright/test';

/** Must match `ROWS_PAINTED_MEASURE` in renderer/src/features/queue/queue-store.ts. */
const MEASURE = 'queue.rows-painted';

export interface RendererPage {
  page: Page;
  launchUrl: string;
}

/** The little of the page's DOM used here (this file compiles without the DOM library). */
interface DomNode {
  scrollHeight: number;
  clientHeight: number;
  scrollTop: number;
  textContent: string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): ArrayLike<DomNode>;
  getAttribute(name: string): string | null;
  click(): void;
}
type PageGlobals = typeof globalThis & {
  document: DomNode;
  requestAnimationFrame(callback: () => void): number;
};

/** Runs `action` and answers the renderer's own measure of the list it caused, in milliseconds. */
export async function rowsPainted(page: Page, action: () => Promise<unknown>): Promise<number> {
  await page.evaluate((name) => performance.clearMeasures(name), MEASURE);
  await action();
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, MEASURE);
  return page.evaluate((name) => performance.getEntriesByName(name)[0]!.duration, MEASURE);
}

/** Jumps the grid's scroll position to `fraction` of its height; ms until rows from there are painted. */
export function scrollJump(page: Page, fraction: number): Promise<number> {
  return page.evaluate(async (at) => {
    const { document, requestAnimationFrame } = globalThis as PageGlobals;
    const body = document.querySelector('table[role="grid"] tbody')!;
    const rowHeight = 48;
    const top = Math.floor(at * (body.scrollHeight - body.clientHeight));
    // Row 1 is the header: the first case row on screen from there is rowindex top / height + 2.
    const wanted = Math.floor(top / rowHeight) + 2;
    const started = performance.now();
    body.scrollTop = top;
    await new Promise<void>((resolve) => {
      const check = () => {
        const shown = Array.from(body.querySelectorAll('tr[aria-rowindex]')).some(
          (row) =>
            row.querySelector('td.queue-cell-name') &&
            Math.abs(Number(row.getAttribute('aria-rowindex')) - wanted) <= 2,
        );
        if (shown) requestAnimationFrame(() => setTimeout(resolve, 0));
        else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - started;
  }, fraction);
}

/** Picks a row on screen (a different one each rep) and times until its case is shown in the case panel. */
export function caseOpened(page: Page, rep: number): Promise<number> {
  return page.evaluate(async (which) => {
    const { document, requestAnimationFrame } = globalThis as PageGlobals;
    const rows = Array.from(document.querySelectorAll('table[role="grid"] tbody tr[aria-rowindex]')).filter(
      (row) => row.querySelector('.queue-row-name') && row.getAttribute('aria-selected') !== 'true',
    );
    const row = rows[which % rows.length]!;
    const name = row.querySelector('.queue-row-name')!.textContent;
    const started = performance.now();
    row.click();
    await new Promise<void>((resolve) => {
      const check = () => {
        if (document.querySelector('#customer-title')?.textContent === name) {
          requestAnimationFrame(() => setTimeout(resolve, 0));
        } else requestAnimationFrame(check);
      };
      check();
    });
    return performance.now() - started;
  }, rep);
}
