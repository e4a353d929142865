import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The design tokens (renderer/src/ui/styles/tokens.css): light and dark define the same names, and every text
 * and icon colour the components put on a background meets WCAG 2.x AA — 4.5:1 for text, 3:1 for icons,
 * marks, a field's edge and the focus ring (1.4.3, 1.4.11).
 */

const TOKENS = path.resolve(import.meta.dirname, '../../../../renderer/src/ui/styles/tokens.css');

type Scheme = Map<string, string>;

/** The custom properties of a block of declarations (`--name: value;`), comments left out. */
function declarations(block: string): Scheme {
  const found = new Map<string, string>();
  for (const match of block.replace(/\/\*[\s\S]*?\*\//g, '').matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) {
    found.set(match[1] as string, (match[2] as string).trim().replace(/\s+/g, ' '));
  }
  return found;
}

/** The light scheme (the first `:root`), and the dark one: the light's, overridden by the media query's. */
function schemes(css: string): { light: Scheme; dark: Scheme } {
  const dark = /@media \(prefers-color-scheme: dark\) \{\s*:root \{([\s\S]*?)\}\s*\}/.exec(css);
  const light = /^:root \{([\s\S]*?)^\}/m.exec(css);
  if (!light || !dark) throw new Error('tokens.css lacks its light :root or its dark media query');
  const lightTokens = declarations(light[1] as string);
  return { light: lightTokens, dark: new Map([...lightTokens, ...declarations(dark[1] as string)]) };
}

function hex(scheme: Scheme, name: string): string {
  const value = scheme.get(name);
  if (!value) throw new Error(`${name} is not defined`);
  const reference = /^var\((--[\w-]+)\)$/.exec(value);
  if (reference) return hex(scheme, reference[1] as string);
  if (!/^#[0-9a-f]{6}$/i.test(value)) throw new Error(`${name} is ${value}, not a #rrggbb colour`);
  return value;
}

/** WCAG 2.x relative luminance and contrast ratio. */
function luminance(color: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = Number.parseInt(color.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const TONES = ['neutral', 'info', 'success', 'warning', 'danger'] as const;
/** Where plain text and icons sit: the content, the chrome, a hovered row, the selected row. */
const SURFACES = ['--color-canvas', '--color-chrome', '--color-bg-muted', '--color-accent-subtle'];
const TEXT = 4.5;
const NON_TEXT = 3;

/** Every pair the components draw: [foreground, background, least contrast]. */
const PAIRS: [string, string, number][] = [
  ...['--color-text', '--color-text-muted', '--color-accent-text'].flatMap((text) =>
    SURFACES.map((surface): [string, string, number] => [text, surface, TEXT]),
  ),
  // Muted text also sits on a pressed control and on a tag.
  ['--color-text-muted', '--color-bg-emphasis', TEXT],
  ['--color-text', '--color-bg-emphasis', TEXT],
  ['--color-on-accent', '--color-accent-solid', TEXT],
  ['--color-on-accent', '--color-accent-solid-hover', TEXT],
  ...TONES.flatMap((tone): [string, string, number][] => [
    [`--color-${tone}-text`, `--color-${tone}-bg`, TEXT],
    [`--color-${tone}-icon`, `--color-${tone}-bg`, NON_TEXT],
    // Icons also sit on the rows themselves (a rejection's mark), the selected one too.
    [`--color-${tone}-icon`, '--color-canvas', NON_TEXT],
    [`--color-${tone}-icon`, '--color-accent-subtle', NON_TEXT],
    [`--color-${tone}-fg`, '--color-canvas', TEXT],
    [`--color-${tone}-solid`, '--color-canvas', NON_TEXT],
  ]),
  // The overdue mark is the one toned text inside a row, which may be the selected one.
  ['--color-danger-fg', '--color-accent-subtle', TEXT],
  ['--color-danger-fg', '--color-bg-muted', TEXT],
  // A chart's lines and markers, on the content's background.
  ...[1, 2, 3, 4, 5, 6].map((n): [string, string, number] => [
    `--color-chart-${n}`,
    '--color-canvas',
    NON_TEXT,
  ]),
  ...['--color-canvas', '--color-chrome'].flatMap((surface): [string, string, number][] => [
    ['--color-focus', surface, NON_TEXT],
    ['--color-border-control', surface, NON_TEXT],
  ]),
];

describe('design tokens', () => {
  const css = readFileSync(TOKENS, 'utf8');
  const { light, dark } = schemes(css);

  it('the dark scheme overrides exactly the light scheme’s colours, under the same names', () => {
    const darkOwn = declarations(
      /@media \(prefers-color-scheme: dark\) \{\s*:root \{([\s\S]*?)\}\s*\}/.exec(css)?.[1] ?? '',
    );
    const colours = (scheme: Scheme) =>
      [...scheme.keys()].filter((name) => name.startsWith('--color-')).sort();
    expect(colours(darkOwn)).toEqual(colours(light));
  });

  for (const [scheme, tokens] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it(`${scheme}: every text and icon pair meets WCAG AA`, () => {
      const failing = PAIRS.map(([fg, bg, least]) => ({
        pair: `${fg} on ${bg}`,
        ratio: Math.round(contrast(hex(tokens, fg), hex(tokens, bg)) * 100) / 100,
        least,
      })).filter(({ ratio, least }) => ratio < least);
      expect(failing).toEqual([]);
    });
  }

  it('the contrast arithmetic is WCAG’s: black on white is 21, a known mid grey 4.54', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
