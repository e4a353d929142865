/**
 * What the docs test reads of a Markdown file: its headings' anchors as GitHub makes them, and its relative
 * links. Fenced code blocks and inline code are not Markdown (a `# TYPE` line of pg_hba.conf is no heading,
 * a `[x](y)` in a command no link), so both are blanked before anything is read.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface MarkdownLink {
  /** The file the link is written in. */
  from: string;
  line: number;
  /** As written: `docs/x.md#anchor`, `#anchor`, `../bench/README.md`. */
  target: string;
}

/** Lines with fenced code blocks emptied (the line count kept, so a link's line number stays right). */
export function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker?.startsWith(fence)) fence = undefined;
      return '';
    }
    if (marker !== undefined) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/**
 * GitHub's anchor for a heading's text: the text as rendered (code and emphasis marks and link targets
 * gone), lower-cased, every character but letters, digits, `_`, `-` and spaces dropped, spaces made `-`.
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .replace(/<[^>]+>/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings make, a repeated one numbered as GitHub numbers it (`-1`, `-2`). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** Links and images whose target is in this repository: a path, an anchor, or both (no scheme). */
export function relativeLinks(file: string, text: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(text).forEach((raw, index) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ from: file, line: index + 1, target });
    }
  });
  return links;
}

/** Why a link does not resolve (the file or the heading it names is missing), or undefined when it does. */
export function brokenReason(link: MarkdownLink, read: (file: string) => string): string | undefined {
  const [pathPart = '', anchor] = link.target.split('#', 2);
  const file = pathPart === '' ? link.from : path.resolve(path.dirname(link.from), decodeURI(pathPart));
  if (pathPart !== '' && !fs.existsSync(file)) return `no file ${pathPart}`;
  if (anchor === undefined) return undefined;
  if (!file.endsWith('.md')) return `an anchor into ${pathPart}, which is not Markdown`;
  return anchorsOf(read(file)).has(anchor) ? undefined : `no heading #${anchor} in ${path.basename(file)}`;
}
