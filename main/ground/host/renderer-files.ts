import { readFile } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

export interface RendererFile {
  body: Buffer;
  contentType: string;
}

/**
 * Reads a file of the built renderer for a URL path. Only files inside `rendererDir` are ever
 * served; a path that escapes it, or names nothing, is `null`. The app is a single page: a path
 * without an extension gets index.html.
 */
export async function readRendererFile(rendererDir: string, urlPath: string): Promise<RendererFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split(/[?#]/, 1)[0] ?? '/');
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = path.extname(decoded) === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  const contentType = CONTENT_TYPES[path.extname(file).toLowerCase()];
  if (!contentType) return null;
  try {
    return { body: await readFile(file), contentType };
  } catch {
    return null;
  }
}
