// A short nemesis run in `npm test` (#37): four desks and two hubs as processes on a store of their own (a
// primary with a synchronous standby), working throughout while a schedule of faults (seed fixed, every
// default kind at least once, a failover among them) hits them for 30 s; then every fault healed, the team
// left to settle (a bounded wait for the store and every replica to stand still), and the history checked
// against what the team holds. Asserts only through the checker: any broken invariant fails the test with
// the checker's words. (`npm run soak -- --minutes 30 --seed N` is the long run: bench/README.md.)
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { DEFAULT_FAULTS } from '../support/nemesis/faults.ts';
import { runNemesis } from '../support/nemesis/run.ts';

const SEED = 37;
const REPORT_FILE = path.join(os.tmpdir(), `vetted-nemesis-test-seed-${SEED}.json`);
/**
 * Every default kind: hub kill -9, a desk stopped (SIGSTOP), PostgreSQL restarted `-m immediate`, the primary
 * killed -9 and its standby promoted, a session terminated, a desk's network cut. (net-freeze stays out: a
 * desk gone silent mid-transaction holds the change-number lock and stops every writer of the team;
 * bench/README.md, "The nemesis soak".)
 */
const FAULTS = DEFAULT_FAULTS;

test('a seeded nemesis run: nothing acknowledged lost, nothing done twice, every invariant holds', async () => {
  const lines: string[] = [];
  const report = await runNemesis({
    seconds: 30,
    seed: SEED,
    faults: FAULTS,
    // Shorter quiets and holds than a soak's: the first round of faults (every kind once) fits the 30 s.
    gapMs: [500, 1_500],
    holdMs: [500, 2_000],
    say: (line) => lines.push(line),
  });
  const { setup, faults, settle, check } = report.seconds;
  console.info(
    `nemesis seed ${SEED}: setup ${setup} s, faults ${faults} s, settle ${settle} s, check ${check} s`,
  );
  if (report.verdict.violations.length > 0) {
    // The whole report (history, final state) for the investigation; the assertion below names the file.
    lines.push(`the whole report: ${REPORT_FILE}`);
    writeFileSync(REPORT_FILE, JSON.stringify(report, null, 1));
  }
  for (const kind of FAULTS) expect(report.faults[kind], `${kind}\n${lines.join('\n')}`).toBeGreaterThan(0);
  expect(report.verdict.violations, lines.join('\n')).toEqual([]);
}, 600_000);
