/**
 * `npm run soak -- --minutes 30 --seed 7 [--faults hub-kill,desk-sleep]`: the nemesis soak (bench/soak.ts)
 * through the bench runner, which writes its rows to bench/results.json. The runner passes on options written
 * `--name=value` only: this turns `--minutes 30` into `--minutes=30`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const given = process.argv.slice(2);
const options: string[] = [];
for (let i = 0; i < given.length; i++) {
  const arg = given[i]!;
  const value = given[i + 1];
  if (arg.startsWith('--') && !arg.includes('=') && value !== undefined && !value.startsWith('--')) {
    options.push(`${arg}=${value}`);
    i++;
  } else options.push(arg);
}
const child = spawn(process.execPath, [path.join(root, 'bench/run.ts'), 'soak', ...options], {
  stdio: 'inherit',
});
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
