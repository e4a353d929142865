import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type MachineNote, machineNow } from './support/machine.ts';
import { parseResult, type ResultRow } from './support/protocol.ts';

/**
 * `npm run bench [-- name… [--option…]]`: runs the benchmarks one after another (they measure throughput, so never
 * two at once), each alone in its own process, shows their output as it comes, reads each one's
 * `RESULT {json}` last line, then prints one table and writes bench/results.json. With no names, all.
 */
const dir = import.meta.dirname;
// Options (`--quick`) go to every bench named; the other words name benches.
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const options = process.argv.slice(2).filter((arg) => arg.startsWith('-'));
const all = readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .map((file) => file.slice(0, -3))
  .sort();
const names = wanted.length > 0 ? wanted : all;

interface BenchOutcome {
  bench: string;
  date: string;
  exitCode: number | null;
  seconds: number;
  /** The 1-minute load average as the bench started and ended: figures on a busy machine are lower bounds. */
  loadAverage: { start: number; end: number };
  rows: ResultRow[];
}

function runOne(name: string): Promise<BenchOutcome> {
  const started = performance.now();
  const date = new Date().toISOString();
  const loadAtStart = machineNow().loadAverage[0];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, `${name}.ts`), ...options], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      process.stdout.write(chunk);
    });
    child.on('close', (exitCode) => {
      const rows = parseResult(stdout) ?? [
        { figure: `${name}: no RESULT line`, goal: '—', measured: 'failed', ratio: null, verdict: 'miss' },
      ];
      resolve({
        bench: name,
        date,
        exitCode,
        seconds: Math.round((performance.now() - started) / 100) / 10,
        loadAverage: { start: loadAtStart, end: machineNow().loadAverage[0] },
        rows,
      });
    });
  });
}

function table(outcomes: readonly BenchOutcome[]): string {
  const rows = outcomes.flatMap((outcome) =>
    outcome.rows.map((row) => [
      `${outcome.bench}: ${row.figure}`,
      row.goal,
      `${row.measured} (load ${outcome.loadAverage.start}–${outcome.loadAverage.end})`,
      row.verdict,
    ]),
  );
  const header = ['figure', 'goal', 'measured', 'verdict'];
  const cells = (row: string[]) => `| ${row.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [cells(header), cells(header.map(() => '---')), ...rows.map(cells)].join('\n');
}

const unknown = names.filter((name) => !existsSync(path.join(dir, `${name}.ts`)));
if (unknown.length > 0) {
  process.stderr.write(`No benchmark named ${unknown.join(', ')} (have: ${all.join(', ')})\n`);
  process.exit(2);
}

const machineAtStart: MachineNote = machineNow();
const startedAt = new Date().toISOString();
const outcomes: BenchOutcome[] = [];
for (const name of names) {
  process.stdout.write(`\n== ${name}\n`);
  outcomes.push(await runOne(name));
}
const machineAtEnd = machineNow();
const text = table(outcomes);
process.stdout.write(
  `\n${startedAt}, ${machineAtStart.cores} cores, node ${machineAtStart.node}, ` +
    `load average ${machineAtStart.loadAverage.join(' ')} at start, ${machineAtEnd.loadAverage.join(' ')} at end\n\n` +
    `${text}\n`,
);
// A run of some benches replaces theirs in the file and keeps the others' last figures (a bench since removed
// or renamed is dropped: the file says where the project stands, not where it stood). A bench run in another
// form (the team bench with 4 desks, then with 50: other figures) keeps each form's last rows.
const file = path.join(dir, 'results.json');
const earlier = readEarlier(file).filter(
  (outcome) => all.includes(outcome.bench) && !supersededBy(outcomes, outcome),
);
const benches = [...earlier, ...outcomes].sort((a, b) => a.bench.localeCompare(b.bench));
writeFileSync(
  file,
  `${JSON.stringify(
    {
      date: startedAt,
      machine: {
        cores: machineAtStart.cores,
        cpu: machineAtStart.cpu,
        node: machineAtStart.node,
        loadAverageAtStart: machineAtStart.loadAverage,
        loadAverageAtEnd: machineAtEnd.loadAverage,
      },
      benches,
      table: table(benches),
    },
    null,
    2,
  )}\n`,
);
const missed = outcomes.some(
  (outcome) => outcome.exitCode !== 0 || outcome.rows.some((row) => row.verdict !== 'pass'),
);
process.exitCode = missed ? 1 : 0;

/** Whether this run measured one of `earlier`'s figures again, or its bench failed this time. */
function supersededBy(now: readonly BenchOutcome[], earlier: BenchOutcome): boolean {
  const same = now.filter((outcome) => outcome.bench === earlier.bench);
  if (same.some((outcome) => outcome.rows.some((row) => row.measured === 'failed'))) return true;
  const figures = new Set(same.flatMap((outcome) => outcome.rows.map((row) => row.figure)));
  return earlier.rows.some((row) => figures.has(row.figure));
}

function readEarlier(file: string): BenchOutcome[] {
  if (!existsSync(file)) return [];
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { benches?: BenchOutcome[] };
    return Array.isArray(parsed.benches) ? parsed.benches : [];
  } catch {
    return [];
  }
}
