/**
 * The benchmarks' shared protocol (bench/README.md): each bench prints what it likes, and as its LAST
 * stdout line `RESULT {json}` with one row per figure; `bench/run.ts` reads that line and nothing else.
 */
export interface ResultRow {
  figure: string;
  goal: string;
  measured: string;
  /** The figure as a number compared with the goal (a ratio, a p99 in ms…), or null when it has none. */
  ratio: number | null;
  verdict: 'pass' | 'miss';
}

export const RESULT_PREFIX = 'RESULT ';

/** The last line a bench prints. */
export function printResult(rows: readonly ResultRow[]): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify({ rows })}\n`);
}

/** The RESULT line of a bench's output, or null when it printed none (it failed before the end). */
export function parseResult(stdout: string): ResultRow[] | null {
  const lines = stdout.trimEnd().split('\n');
  const last = lines[lines.length - 1] ?? '';
  if (!last.startsWith(RESULT_PREFIX)) return null;
  try {
    const parsed = JSON.parse(last.slice(RESULT_PREFIX.length)) as { rows?: unknown };
    return Array.isArray(parsed.rows) ? (parsed.rows as ResultRow[]) : null;
  } catch {
    return null;
  }
}

/** The middle value (the lower middle of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The q-quantile (0..1) by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Samplers taken in turn (a, b, c, a, b, c…), `rounds` of each (at least 3): on a shared machine the load
 * drifts, and adjacent samples share most of it. Returns each one's series, in the order given.
 */
export async function inTurn(
  rounds: number,
  samplers: ReadonlyArray<() => Promise<number>>,
): Promise<number[][]> {
  const series = samplers.map((): number[] => []);
  for (let round = 0; round < Math.max(3, rounds); round++) {
    for (const [i, sample] of samplers.entries()) series[i]!.push(await sample());
  }
  return series;
}

/** Baseline and subject sampled in turn (see `inTurn`), with both series and the medians. */
export async function interleave(
  rounds: number,
  baseline: () => Promise<number>,
  subject: () => Promise<number>,
): Promise<{ baseline: number[]; subject: number[]; baselineMedian: number; subjectMedian: number }> {
  const [b = [], s = []] = await inTurn(rounds, [baseline, subject]);
  return { baseline: b, subject: s, baselineMedian: median(b), subjectMedian: median(s) };
}

/** A row for "at least `goal`" (a ratio of throughputs). */
export function atLeast(figure: string, ratio: number, goal: number, measured: string): ResultRow {
  return {
    figure,
    goal: `≥ ${goal}`,
    measured,
    ratio: round3(ratio),
    verdict: ratio >= goal ? 'pass' : 'miss',
  };
}

/** A row for "at most `goal`" (a latency, a growth factor). */
export function atMost(
  figure: string,
  value: number,
  goal: number,
  unit: string,
  measured: string,
): ResultRow {
  return {
    figure,
    goal: `≤ ${goal}${unit}`,
    measured,
    ratio: round3(value),
    verdict: value <= goal ? 'pass' : 'miss',
  };
}

export const round3 = (value: number): number => Math.round(value * 1000) / 1000;
