// A short nemesis run in `npm test` (#37): four desks and two hubs as processes on a PostgreSQL of their own,
// working throughout while a schedule of faults (seed fixed, every default kind) hits them for 45 s; then
// every fault healed, the team left to settle (a bounded wait for the store and every replica to stand still), and the history
// checked against what the team holds. Asserts only through the checker: any broken invariant fails the test
// with the checker's words. (`npm run soak -- --minutes 30 --seed N` is the long run: bench/README.md.)
import { expect, test } from 'vitest';
import { DEFAULT_FAULTS } from '../support/nemesis/faults.ts';
import { runNemesis } from '../support/nemesis/run.ts';

const SEED = 37;
/**
 * Every default kind: hub kill -9, a desk stopped (SIGSTOP), PostgreSQL restarted `-m immediate`, a session
 * terminated, a desk's network cut. (net-freeze stays out: a desk gone silent mid-transaction holds the
 * change-number lock and stops every writer of the team; bench/README.md, "The nemesis soak".)
 */
const FAULTS = DEFAULT_FAULTS;

test('a seeded nemesis run: nothing acknowledged lost, nothing done twice, every invariant holds', async () => {
  const lines: string[] = [];
  const report = await runNemesis({
    seconds: 45,
    seed: SEED,
    faults: FAULTS,
    say: (line) => lines.push(line),
  });
  const injected = Object.values(report.faults).reduce((sum, n) => sum + n, 0);
  expect(injected, lines.join('\n')).toBeGreaterThan(0);
  expect(report.verdict.violations, lines.join('\n')).toEqual([]);
}, 600_000);
