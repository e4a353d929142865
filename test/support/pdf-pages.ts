// A PDF read as a person reads it (poppler-utils): its text as laid out, and its pages drawn as images (pdftoppm
// at 50 dpi, grey) compared with committed baselines. `UPDATE_BASELINES=1` writes the baselines, to be looked at
// before committing; without it a missing baseline fails, and so does a page more than the baselines have.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { decodePng, differingShare } from './png-diff.ts';

export const poppler = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });

/** The text as laid out, each run of spaces and newlines one space: a label and its value, a wrapped line. */
export const pdfText = (file: string) => poppler('pdftotext', ['-layout', file, '-']).replace(/\s+/g, ' ');

/** Each of the file's `pages` against `<baselines>/<name>-<page>.png`, and no page more. */
export function expectPagesLikeBaselines(
  file: string,
  pages: number,
  baselines: string,
  name: string,
  work: string,
): void {
  mkdirSync(baselines, { recursive: true });
  const update = process.env.UPDATE_BASELINES === '1';
  const stem = path.join(work, name);
  poppler('pdftoppm', ['-r', '50', '-gray', '-png', file, stem]);
  for (let page = 1; page <= pages; page++) {
    // pdftoppm pads the page number to the count's digits.
    const drawn = readFileSync(`${stem}-${String(page).padStart(String(pages).length, '0')}.png`);
    const baseline = path.join(baselines, `${name}-${page}.png`);
    if (update || !existsSync(baseline)) {
      if (!update) throw new Error(`No baseline ${baseline}: run with UPDATE_BASELINES=1 and look at it.`);
      writeFileSync(baseline, drawn);
      continue;
    }
    const share = differingShare(decodePng(drawn), decodePng(readFileSync(baseline)));
    expect(share, `${name} page ${page}`).toBeLessThan(0.0005);
  }
  expect(existsSync(path.join(baselines, `${name}-${pages + 1}.png`)), `${name}: no page more`).toBe(false);
}
