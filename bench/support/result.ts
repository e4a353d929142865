/**
 * The benchmarks' shared protocol: human-readable lines, then as the last stdout line `RESULT {"rows":[…]}`,
 * which `bench/run.ts` reads into its table.
 */
export interface ResultRow {
  figure: string;
  goal: string;
  measured: string;
  ratio: number | null;
  verdict: 'pass' | 'miss';
}

export function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

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
  process.stdout.write(`RESULT ${JSON.stringify({ rows })}\n`);
}
