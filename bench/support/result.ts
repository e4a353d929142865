/**
 * The queue benches' rows on the shared protocol (protocol.ts): a growth row per figure, each also
 * printed as a human-readable line before the RESULT line.
 */
import { printResult as printResultLine, type ResultRow } from './protocol.ts';

export { median, type ResultRow } from './protocol.ts';

/** A "100k ÷ 1k must stay under `goal`" row, from the medians at each size (ms). */
export function growthRow(figure: string, small: number, large: number, goal: number): ResultRow {
  const ratio = large / small;
  return {
    figure,
    goal: `100k ÷ 1k ≤ ${goal}`,
    measured: `${small.toFixed(3)} ms → ${large.toFixed(3)} ms (${ratio.toFixed(2)}×)`,
    ratio: Number(ratio.toFixed(3)),
    verdict: ratio <= goal ? 'pass' : 'miss',
  };
}

export function printResult(rows: ResultRow[]): void {
  for (const row of rows) {
    console.info(
      `${row.verdict === 'pass' ? 'pass' : 'MISS'}  ${row.figure.padEnd(44)} ${row.measured}  (goal ${row.goal})`,
    );
  }
  printResultLine(rows);
}
