import { existsSync, readFileSync } from 'node:fs';

/**
 * Prints one plain closing line per suite ("unit: 120 passed, 0 failed"), read from the JSON
 * reports of Vitest and Playwright, so a reader of CI's log sees at once what ran.
 */

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(file: string): Counts {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
  };
  return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests };
}

function playwrightCounts(file: string): Counts {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  const { expected, unexpected, flaky, skipped } = report.stats;
  return { passed: expected + flaky, failed: unexpected, skipped };
}

const suites: [string, string, (file: string) => Counts][] = [
  ['unit', 'test-results/vitest.json', vitestCounts],
  ['e2e', 'test-results/playwright.json', playwrightCounts],
];

let failed = 0;
for (const [name, file, read] of suites) {
  if (!existsSync(file)) continue;
  const counts = read(file);
  failed += counts.failed;
  process.stdout.write(
    `${name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`,
  );
}
process.exitCode = failed > 0 ? 1 : 0;
