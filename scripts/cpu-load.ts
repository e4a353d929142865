import { fork } from 'node:child_process';
import { availableParallelism } from 'node:os';

/**
 * Keeps every core busy for a bounded time, so the test suite can be proved on a loaded machine:
 *
 *   node scripts/cpu-load.ts [--seconds 1800] [--workers N] [-- command args…]
 *
 * With a command, the load runs while the command does and stops when it ends (its exit code is
 * passed on); without one, it stops after `--seconds`. Each worker spins in its own process and
 * exits by itself when the time is up, even if this parent is killed.
 */

const SPIN = 'spin';

if (process.argv[2] === SPIN) {
  const until = Date.now() + Number(process.argv[3]) * 1000;
  while (Date.now() < until) {
    // Busy on purpose: this process exists to take a core away from the tests.
  }
  process.exit(0);
}

interface Options {
  seconds: number;
  workers: number;
  command: string[];
}

function parse(args: string[]): Options {
  const options: Options = { seconds: 1800, workers: availableParallelism(), command: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      options.command = args.slice(i + 1);
      break;
    }
    const value = Number(args[i + 1]);
    if ((arg === '--seconds' || arg === '--workers') && Number.isInteger(value) && value > 0) {
      options[arg === '--seconds' ? 'seconds' : 'workers'] = value;
      i++;
    } else {
      throw new Error(
        `cpu-load: unknown or invalid option ${arg} (see the comment at the top of the script)`,
      );
    }
  }
  return options;
}

const options = parse(process.argv.slice(2));
const workers = Array.from({ length: options.workers }, () =>
  fork(import.meta.filename, [SPIN, String(options.seconds)], { stdio: 'ignore' }),
);
const stopLoad = () => {
  for (const worker of workers) worker.kill();
};
process.on('SIGINT', stopLoad);
process.on('SIGTERM', stopLoad);
process.stderr.write(`cpu-load: ${options.workers} busy processes for at most ${options.seconds} s\n`);

if (options.command.length > 0) {
  const [file, ...args] = options.command as [string, ...string[]];
  const { spawn } = await import('node:child_process');
  const child = spawn(file, args, { stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    stopLoad();
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
