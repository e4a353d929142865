import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench [-- name…]`: runs the benchmarks one after another (they measure throughput, so
 * never two at once), each in its own process. With no names, all of them.
 */
const dir = import.meta.dirname;
const wanted = process.argv.slice(2);
const all = readdirSync(dir)
  .filter((file) => file.endsWith('.ts') && file !== 'run.ts')
  .map((file) => file.slice(0, -3))
  .sort();
const names = wanted.length > 0 ? wanted : all;

let failed = 0;
for (const name of names) {
  const file = path.join(dir, `${name}.ts`);
  if (!existsSync(file)) {
    process.stderr.write(`No benchmark named ${name} (have: ${all.join(', ')})\n`);
    failed++;
    continue;
  }
  process.stdout.write(`\n== ${name}\n`);
  const result = spawnSync(process.execPath, [file], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
