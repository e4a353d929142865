import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Proves the suite green the way CI sees it, on a loaded machine:
 *
 *   node scripts/prove-green.ts [--runs 5] [--ref HEAD]
 *
 * Each run clones the repository afresh, installs with `npm ci`, and runs `npm test` while
 * scripts/cpu-load.ts keeps every core busy. It prints each run's closing line and time, and
 * exits non-zero if any run failed. Runs follow one another: a failure does not stop the rest,
 * so the count of green runs is honest.
 */

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1]! : fallback;
};
const runs = Number(option('--runs', '5'));
const ref = option('--ref', 'HEAD');
const repo = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const sh = (command: string, commandArgs: string[], cwd: string) =>
  spawnSync(command, commandArgs, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

const commit = sh('git', ['rev-parse', '--short', ref], repo).stdout.trim();
const results: string[] = [];
let failures = 0;

for (let run = 1; run <= runs; run++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-green-'));
  const started = Date.now();
  try {
    sh('git', ['clone', '--quiet', repo, dir], repo);
    sh('git', ['checkout', '--quiet', commit], dir);
    const install = sh(npm, ['ci', '--no-audit', '--no-fund'], dir);
    if (install.status !== 0) throw new Error(`npm ci failed: ${install.stderr.slice(-2000)}`);
    const test = sh('node', ['scripts/cpu-load.ts', '--seconds', '3600', '--', npm, 'test'], dir);
    const lines = `${test.stdout}`.trim().split('\n');
    const closing = lines.at(-1) ?? '(no output)';
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    const verdict = test.status === 0 ? 'green' : 'RED';
    if (test.status !== 0) {
      failures++;
      const log = path.join(os.tmpdir(), `vetted-green-${commit}-run${run}.log`);
      writeFileSync(log, `${test.stdout}\n${test.stderr}`);
      results.push(`run ${run}: ${verdict} — ${closing} — ${minutes} min (log: ${log})`);
    } else {
      results.push(`run ${run}: ${verdict} — ${closing} — ${minutes} min`);
    }
  } catch (error) {
    failures++;
    results.push(`run ${run}: RED — ${(error as Error).message}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${results.at(-1)}\n`);
}

process.stdout.write(`\n${commit}: ${runs - failures} of ${runs} loaded fresh-clone runs green\n`);
process.exitCode = failures > 0 ? 1 : 0;
