import { readFileSync } from 'node:fs';
import type { Finding } from './contract.ts';

/**
 * The README's tables are the tests' tables: each row names an operation (`*` for any) and the part
 * of an exchange it is about, exactly as contract.ts names its findings. A finding no row names
 * fails the suite, and so does a row no finding needs: the tables stay complete and honest.
 */
export interface Row {
  operation: string;
  part: string;
  /** The other cells, by their column's heading. */
  cells: Record<string, string>;
}

export const README = new URL('./README.md', import.meta.url);

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim().replace(/^`|`$/g, ''));

/** The first table after the heading `## <heading>`. */
export function readTable(heading: string, text = readFileSync(README, 'utf8')): Row[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`No "## ${heading}" in test/official/README.md.`);
  const first = lines.findIndex((line, i) => i > start && line.trim().startsWith('|'));
  const table: string[] = [];
  for (let i = first; i >= 0 && i < lines.length && lines[i]!.trim().startsWith('|'); i++)
    table.push(lines[i]!);
  const [head = '', , ...rows] = table;
  const names = cellsOf(head);
  return rows.map((line) => {
    const cells = Object.fromEntries(cellsOf(line).map((cell, i) => [names[i] ?? String(i), cell]));
    return { operation: cells.operation ?? '', part: cells.part ?? '', cells };
  });
}

export const rowFor = (rows: readonly Row[], finding: Finding): Row | undefined =>
  rows.find(
    (row) => (row.operation === '*' || row.operation === finding.operation) && row.part === finding.part,
  );

/** The findings no row names, and the rows no finding needs. */
export function against<F extends Finding>(rows: readonly Row[], findings: readonly F[]) {
  const unlisted = findings.filter((finding) => !rowFor(rows, finding));
  const unused = rows.filter((row) => !findings.some((finding) => rowFor([row], finding)));
  return { unlisted, unused };
}
