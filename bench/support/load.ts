import { execFile } from 'node:child_process';
import path from 'node:path';

/**
 * The load generator, run in a process of its own (load-child.ts) so that it never takes CPU from the
 * server's thread: a bench that shares its thread with the load measures the load generator too.
 */
export interface LoadJob {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  /** Send exactly this many requests instead of for `seconds`. */
  amount?: number;
  headers?: Record<string, string>;
  /** Signed deliveries, each a fresh event about one of these customers. */
  webhook?: {
    secret: string;
    serviceBase: string;
    customerIds: string[];
    topic?: string;
  };
  /** Where the ids of the deliveries answered 200 go (one a line). */
  acknowledgedFile?: string;
}

export interface LoadOutcome {
  perSecond: number;
  total: number;
  /** Requests sent during the warm-up (not in `total`, `perSecond` or the latencies). */
  warmupTotal: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

const CHILD = path.join(import.meta.dirname, 'load-child.ts');

export function runLoad(job: LoadJob): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CHILD, JSON.stringify(job)],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`load generator failed: ${stderr || error.message}`));
        const last = stdout.trimEnd().split('\n').pop() ?? '';
        resolve(JSON.parse(last) as LoadOutcome);
      },
    );
  });
}
