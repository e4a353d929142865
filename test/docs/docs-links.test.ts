// The README is a front page and the manual lives in docs/ (#36): every relative link and #anchor in them
// (and in bench/README.md) must lead to a file and a heading that exist, and the front page stays short.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, brokenReason, githubSlug, relativeLinks } from '../support/markdown-links.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README = path.join(ROOT, 'README.md');
const DOCS = path.join(ROOT, 'docs');

const read = (file: string) => fs.readFileSync(file, 'utf8');

/** The pages whose links are checked: the front page, the manual, the benchmarks' page. */
function pages(): string[] {
  const docs = fs
    .readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(DOCS, name));
  return [README, ...docs, path.join(ROOT, 'bench/README.md')];
}

describe('the README and docs/', () => {
  it('keep the README a front page of at most 250 lines', () => {
    expect(read(README).trimEnd().split('\n').length).toBeLessThanOrEqual(250);
  });

  it('link only to files and headings that exist', () => {
    const links = pages().flatMap((file) => relativeLinks(file, read(file)));
    const broken = links.flatMap((link) => {
      const reason = brokenReason(link, read);
      return reason === undefined
        ? []
        : [`${path.relative(ROOT, link.from)}:${link.line} ${link.target}: ${reason}`];
    });
    expect(broken).toEqual([]);
    // The check saw the manual's links at all (a parser that finds none would pass anything).
    expect(links.filter((link) => link.target.includes('#')).length).toBeGreaterThan(20);
  });

  it('link the README to every page of the manual', () => {
    const linked = new Set(relativeLinks(README, read(README)).map((link) => link.target.split('#')[0]));
    const manual = pages().filter((file) => file !== README);
    expect(manual.map((file) => path.relative(ROOT, file)).filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('the link check itself', () => {
  it("makes GitHub's anchors: lower case, punctuation dropped, spaces made hyphens, repeats numbered", () => {
    expect(githubSlug('TLS (`sslmode=verify-full`)')).toBe('tls-sslmodeverify-full');
    expect(githubSlug("The lead's view")).toBe('the-leads-view');
    expect(githubSlug('3. `init`: the team store and the team key')).toBe(
      '3-init-the-team-store-and-the-team-key',
    );
    expect(githubSlug('Vetted — architecture')).toBe('vetted--architecture');
    expect([...anchorsOf('# A\n## Backups\n```\n# not a heading\n```\n### Backups\n')]).toEqual([
      'a',
      'backups',
      'backups-1',
    ]);
  });

  it('finds a link to a missing heading, a missing file, and none inside code', () => {
    const page = path.join(DOCS, 'page.md');
    const text = [
      '# Here',
      'See [here](#here), [gone](#gone), [arch](ARCHITECTURE.md#layers), [nope](nope.md), [web](https://x.org).',
      'Not a link: `[a](b.md)`.',
      '```',
      '[c](d.md)',
      '```',
    ].join('\n');
    const links = relativeLinks(page, text);
    expect(links.map((link) => link.target)).toEqual(['#here', '#gone', 'ARCHITECTURE.md#layers', 'nope.md']);
    const readPage = (file: string) => (file === page ? text : read(file));
    expect(links.map((link) => brokenReason(link, readPage))).toEqual([
      undefined,
      'no heading #gone in page.md',
      undefined,
      'no file nope.md',
    ]);
  });
});
