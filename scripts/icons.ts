import { mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import generateIcon from 'icon-gen';

/**
 * `npm run icons`: turns the one source, assets/icon.svg, into what electron-builder wants in
 * build/icons/: icon.icns (macOS), icon.ico (Windows) and the PNG set named `NxN.png` (Linux).
 *
 * Generated at build time, not committed: the SVG stays the only source, so the platform icons
 * cannot drift from it, and no binary blobs land in git. icon-gen renders with sharp, whose
 * prebuilt libvips comes from the npm registry for every CI runner's OS.
 */

const root = path.resolve(import.meta.dirname, '..');
export const ICON_SOURCE = path.join(root, 'assets', 'icon.svg');
export const ICONS_DIR = path.join(root, 'build', 'icons');
export const PNG_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;

export async function buildIcons(outDir: string = ICONS_DIR): Promise<string[]> {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const written = await generateIcon(ICON_SOURCE, outDir, {
    report: false,
    ico: { name: 'icon', sizes: [16, 24, 32, 48, 64, 128, 256] },
    icns: { name: 'icon', sizes: [16, 32, 64, 128, 256, 512, 1024] },
    // icon-gen's PNG output is its favicon set; electron-builder's Linux icons are `NxN.png`.
    favicon: { name: 'png-', pngSizes: [...PNG_SIZES], icoSizes: [] },
  });
  // icon-gen writes a favicon.ico with its PNG set whatever icoSizes says; nothing uses it.
  rmSync(path.join(outDir, 'favicon.ico'), { force: true });
  return written
    .filter((file) => !file.endsWith('favicon.ico'))
    .map((file) => {
      const size = /png-(\d+)\.png$/.exec(file)?.[1];
      if (!size) return file;
      const renamed = path.join(outDir, `${size}x${size}.png`);
      renameSync(file, renamed);
      return renamed;
    });
}

if (import.meta.main) {
  const files = await buildIcons();
  process.stdout.write(`${files.length} icon files in ${path.relative(root, ICONS_DIR)}\n`);
}
