/**
 * The renderer's first-paint JavaScript: the chunks out/renderer/index.html loads before anything can paint
 * (its entry script and every modulepreload), as `npm run build` left them. React's chunk is counted apart,
 * as before: it changes only with React. Goal (issue #27, the design system): the app's own first-paint code
 * at most 10 % above the 237 kB measured when the screens became chunks of their own (eed57f9).
 *
 *   npm run build && node bench/first-paint-js.ts [--out another/checkout/out/renderer]
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { atMost, printResult } from './support/protocol.ts';

const BEFORE_KB = 237;
const GOAL_KB = Math.round(BEFORE_KB * 1.1 * 10) / 10;
const { values } = parseArgs({
  options: { out: { type: 'string', default: path.resolve(import.meta.dirname, '..', 'out', 'renderer') } },
});
const outDir = path.resolve(values.out);

const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
const loaded = [
  ...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
].map((match) => match[1] as string);
if (loaded.length === 0)
  throw new Error('out/renderer/index.html loads no script: run `npm run build` first.');

const kB = (bytes: number) => Math.round(bytes / 10) / 100;
const chunks = loaded.map((href) => {
  const file = path.join(outDir, href);
  return { href, bytes: statSync(file).size, gzip: gzipSync(readFileSync(file)).length };
});
for (const chunk of chunks)
  process.stdout.write(`${chunk.href.padEnd(44)} ${kB(chunk.bytes)} kB (gzip ${kB(chunk.gzip)} kB)\n`);

const isReact = (href: string) => /\/react-[^/]+\.js$/.test(href);
const sum = (list: typeof chunks, key: 'bytes' | 'gzip') =>
  list.reduce((total, chunk) => total + chunk[key], 0);
const own = chunks.filter((chunk) => !isReact(chunk.href));
const react = chunks.filter((chunk) => isReact(chunk.href));
const ownKb = kB(sum(own, 'bytes'));
process.stdout.write(
  `own code ${ownKb} kB (gzip ${kB(sum(own, 'gzip'))} kB); React ${kB(sum(react, 'bytes'))} kB\n`,
);

printResult([
  atMost(
    'first-paint JavaScript, the app’s own (React apart)',
    ownKb,
    GOAL_KB,
    ' kB',
    `${ownKb} kB, gzip ${kB(sum(own, 'gzip'))} kB (${BEFORE_KB} kB before; React ${kB(sum(react, 'bytes'))} kB more)`,
  ),
]);
