// The fonts of Vetted's PDFs (the case file, the period report): DejaVu Sans, shipped under assets/fonts/ with
// its licence (electron-builder.yml packs it) and embedded in every PDF (subset), so the file reads the same on
// an examiner's machine. A PDF's 14 standard fonts are not embedded and cover no more than Latin-1: a name such
// as "Zoë Łukasiewicz" needs more.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The folder holding package.json above `from`: the checkout, or the packaged app's root (its asar). */
function appRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../..');
  }
}

export interface PdfFonts {
  body: Buffer;
  bold: Buffer;
}

let loaded: PdfFonts | undefined;

/** Read once, when the first PDF is made: nothing of it at start-up. */
export function pdfFonts(): PdfFonts {
  if (!loaded) {
    const dir = path.join(appRoot(import.meta.dirname), 'assets', 'fonts');
    loaded = {
      body: readFileSync(path.join(dir, 'DejaVuSans.ttf')),
      bold: readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return loaded;
}
