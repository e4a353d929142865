import { expect, type Page } from '@playwright/test';

/**
 * Every select on screen shows its chosen value whole: the value's text, in the select's own font, fits
 * the room inside it (its width less its padding, where the chevron sits). A select capped narrower than
 * its value ("Interface document (de") fails, naming the select and the value.
 */
export async function expectSelectsShowWholeValue(page: Page): Promise<void> {
  const cut = await page.evaluate(() => {
    const { document, getComputedStyle } = globalThis as unknown as {
      document: {
        querySelectorAll(selector: string): Iterable<{
          id: string;
          name: string;
          clientWidth: number;
          selectedOptions: { text: string }[];
          getClientRects(): { length: number };
        }>;
        createElement(tag: 'canvas'): {
          getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } };
        };
      };
      getComputedStyle(element: unknown): {
        font: string;
        paddingLeft: string;
        paddingRight: string;
      };
    };
    const context = document.createElement('canvas').getContext('2d');
    const problems: string[] = [];
    for (const select of document.querySelectorAll('select')) {
      if (select.getClientRects().length === 0) continue;
      const style = getComputedStyle(select);
      context.font = style.font;
      const text = select.selectedOptions[0]?.text ?? '';
      const room =
        select.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      if (context.measureText(text).width > room + 0.5)
        problems.push(`${select.id || select.name}: “${text}”`);
    }
    return problems;
  });
  expect(cut, 'selects whose value is cut').toEqual([]);
}
