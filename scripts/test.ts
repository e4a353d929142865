import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

/**
 * `npm test`: every stage runs, whatever failed before it (except what cannot run: the end-to-end
 * tests need the build), so one run tells everything that is wrong. It ends with one line,
 * `N passed, N failed`, counting the unit and end-to-end tests together; a stage with no tests
 * of its own (type check, lint, build) that fails counts as one failure there, so that line never
 * says 0 failed while something did.
 */

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  /** Why tests were skipped, when the suite said so (the Electron smoke suite without a runtime). */
  skipReasons?: string[];
}

interface Stage {
  name: string;
  script: string;
  /** Where the stage's test runner writes its JSON report, and how to read it. */
  report?: { file: string; read(file: string): Counts };
  needs?: string;
}

function vitestCounts(file: string): Counts {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests?: number;
  };
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    skipped: report.numPendingTests + (report.numTodoTests ?? 0),
  };
}

function playwrightCounts(file: string): Counts {
  const report = JSON.parse(readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  const { expected, unexpected, flaky, skipped } = report.stats;
  // A test that passed only on a retry is a failure: this suite must not flake.
  return { passed: expected, failed: unexpected + flaky, skipped, skipReasons: skipAnnotations(report) };
}

/** Every distinct reason a Playwright test gave for skipping itself, from its JSON report. */
function skipAnnotations(report: unknown): string[] {
  const reasons = new Set<string>();
  const visit = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const { type, description } = node as { type?: unknown; description?: unknown };
    if (type === 'skip' && typeof description === 'string') reasons.add(description);
    for (const child of Object.values(node)) visit(child);
  };
  visit(report);
  return [...reasons];
}

const STAGES: Stage[] = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  { name: 'build', script: 'build' },
  { name: 'unit', script: 'test:unit', report: { file: 'test-results/vitest.json', read: vitestCounts } },
  {
    name: 'e2e',
    script: 'test:e2e',
    report: { file: 'test-results/playwright.json', read: playwrightCounts },
    needs: 'build',
  },
  {
    // Skipped, with its reason, where no Electron runtime exists; the release workflow runs it for real.
    name: 'electron',
    script: 'test:electron',
    report: { file: 'test-results/electron-smoke.json', read: playwrightCounts },
    needs: 'build',
  },
];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const outcomes = new Map<string, 'ok' | 'failed' | 'not run'>();
const lines: string[] = [];
const total: Counts = { passed: 0, failed: 0, skipped: 0 };

for (const stage of STAGES) {
  if (stage.needs && outcomes.get(stage.needs) !== 'ok') {
    outcomes.set(stage.name, 'not run');
    lines.push(`${stage.name}: not run (${stage.needs} failed)`);
    total.failed++;
    continue;
  }
  if (stage.report) rmSync(stage.report.file, { force: true });
  const started = performance.now();
  const run = spawnSync(npm, ['run', '--silent', stage.script], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  const ok = run.status === 0;
  outcomes.set(stage.name, ok ? 'ok' : 'failed');
  if (!stage.report) {
    lines.push(`${stage.name}: ${ok ? 'ok' : 'failed'} (${seconds} s)`);
    if (!ok) total.failed++;
    continue;
  }
  if (!existsSync(stage.report.file)) {
    lines.push(`${stage.name}: failed before reporting any test (${seconds} s)`);
    total.failed++;
    continue;
  }
  const counts = stage.report.read(stage.report.file);
  // A runner that failed with every test passing (an error outside the tests) still fails the run.
  const extra = !ok && counts.failed === 0 ? 1 : 0;
  total.passed += counts.passed;
  total.failed += counts.failed + extra;
  total.skipped += counts.skipped;
  const skippedWhy = counts.skipReasons?.length ? ` (skipped: ${counts.skipReasons.join('; ')})` : '';
  const note = (extra ? ', and the runner itself failed' : '') + skippedWhy;
  lines.push(
    `${stage.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${note} (${seconds} s)`,
  );
}

process.stdout.write(`\n${lines.join('\n')}\n`);
const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : '';
process.stdout.write(`${total.passed} passed, ${total.failed} failed${skipped}\n`);
process.exitCode = total.failed > 0 ? 1 : 0;
