/**
 * The nemesis soak (#37): four desks and two hubs (processes) on a store of their own (a primary with a
 * synchronous standby), every desk submitting drafts, writing notes, taking and releasing cases and asking
 * for, approving and collecting exports with names, while a seeded schedule of faults hits them for
 * `--minutes` (hub kill -9 and restart, a desk stopped with SIGSTOP, the primary restarted with `-m
 * immediate`, the primary killed -9 and the standby promoted, a session terminated, a desk's network cut;
 * `--faults a,b` chooses among test/support/nemesis/faults.ts's kinds). Then every fault is
 * healed, the team settles, and the history is checked against what the team holds (checker.ts): lost,
 * duplicated, invariants broken — each must be 0. The whole report (history, final state) is written to a
 * file in the temporary directory for a run that broke something.
 * Run: `npm run soak -- --minutes 30 --seed 7` (bench/run.ts writes the rows to bench/results.json), or
 * `npx node bench/soak.ts --minutes=2 --seed=7`.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_FAULTS } from '#test/support/nemesis/faults.ts';
import { runNemesis } from '#test/support/nemesis/run.ts';
import { loadNote } from './support/machine.ts';
import { atMost, printResult, type ResultRow } from './support/protocol.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    seed: { type: 'string', default: '37' },
    faults: { type: 'string', default: DEFAULT_FAULTS.join(',') },
    quick: { type: 'boolean', default: false },
  },
});
const minutes = args.quick ? 1 : Number(args.minutes);
const seed = Number(args.seed);
const say = (line: string) => process.stdout.write(`${line}\n`);

say(`nemesis soak: ${minutes} min of faults (${args.faults}), seed ${seed}; ${loadNote()}`);
const report = await runNemesis({ seconds: minutes * 60, seed, faults: args.faults.split(','), say });
const { verdict } = report;
const file = path.join(os.tmpdir(), `vetted-soak-seed-${seed}.json`);
writeFileSync(file, JSON.stringify(report, null, 1));
const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
const acknowledged = Object.values(verdict.acknowledged).reduce((sum, n) => sum + n, 0);
say(`faults injected: ${list(report.faults)}`);
say(
  `operations acknowledged: ${list(verdict.acknowledged)} (${acknowledged}); refused ${verdict.refused}, unanswered ${verdict.unanswered}`,
);
say(`lost ${verdict.lost}, duplicated ${verdict.duplicated}, invariants broken ${verdict.broken}`);
for (const { invariant, detail } of verdict.violations.slice(0, 20)) say(`  ${invariant}: ${detail}`);
say(`seconds: ${list(report.seconds)}; the whole report: ${file}; ${loadNote()}`);

const figure = (name: string) => `${name} (${minutes} min, seed ${seed})`;
const rows: ResultRow[] = [
  {
    figure: figure('faults injected'),
    goal: 'each kind at least once',
    measured: list(report.faults),
    ratio: Object.values(report.faults).reduce((sum, n) => sum + n, 0),
    verdict: Object.values(report.faults).every((n) => n > 0) ? 'pass' : 'miss',
  },
  {
    figure: figure('operations acknowledged'),
    goal: 'every kind at least once',
    measured: `${list(verdict.acknowledged)}; refused ${verdict.refused}, unanswered ${verdict.unanswered}`,
    ratio: acknowledged,
    verdict: Object.values(verdict.acknowledged).every((n) => n > 0) ? 'pass' : 'miss',
  },
  atMost(figure('acknowledged effects lost'), verdict.lost, 0, '', String(verdict.lost)),
  atMost(figure('effects done twice'), verdict.duplicated, 0, '', String(verdict.duplicated)),
  atMost(
    figure('invariants broken'),
    verdict.broken,
    0,
    '',
    `${verdict.broken} of 7${verdict.violations.length > 0 ? `: ${verdict.violations[0]!.invariant}: ${verdict.violations[0]!.detail.slice(0, 200)}` : ''}`,
  ),
];
printResult(rows);
