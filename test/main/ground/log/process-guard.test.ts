// The last net of a long-running process: a fault nothing caught is logged (scrubbed) and counted for
// Diagnostics, and the process goes on.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { expect, test } from 'vitest';
import { createLogger } from '#main/ground/log/logger.ts';
import { guardProcess, processFaults } from '#main/ground/log/process-guard.ts';
import { runChild } from '#test/support/child.ts';

const CHILD = path.resolve(import.meta.dirname, 'fixtures/process-guard-child.ts');

test('each fault is logged as an error, scrubbed, and counted with the time and kind of the last', () => {
  const target = new EventEmitter();
  const lines: string[] = [];
  const log = createLogger((line) => lines.push(line));
  log.addSecret('s3cret-password');
  const times = ['2026-11-29T07:00:00.000Z', '2026-11-29T07:00:05.000Z'];
  const guard = guardProcess({ log, target, now: () => new Date(times.shift()!) });
  expect(guard.faults()).toEqual({ count: 0, last: null });

  target.emit('unhandledRejection', new Error('lost s3cret-password'), Promise.resolve());
  target.emit('uncaughtException', new TypeError('x is undefined'));

  expect(guard.faults()).toEqual({
    count: 2,
    last: { at: '2026-11-29T07:00:05.000Z', kind: 'uncaughtException' },
  });
  const entries = lines.map((line) => JSON.parse(line));
  expect(entries).toMatchObject([
    { level: 'error', kind: 'unhandledRejection', faults: 1, error: 'Error: lost [redacted]' },
    { level: 'error', kind: 'uncaughtException', faults: 2, error: 'TypeError: x is undefined' },
  ]);
  expect(lines.join('\n')).not.toContain('s3cret-password');
  // A stand-in is not this process: the figures Diagnostics reads stay this process's own.
  expect(processFaults()).toEqual({ count: 0, last: null });
  guard.dispose();
  expect(target.listenerCount('uncaughtException') + target.listenerCount('unhandledRejection')).toBe(0);
});

test('in a real process, a rejection and an exception nothing caught do not end it', async () => {
  const run = runChild(CHILD, [], {});
  const exit = await run.exited;
  expect(exit).toEqual({ code: 0, signal: null });
  const [rejected, thrown, figures] = run.lines.map((line) => JSON.parse(line));
  expect(rejected).toMatchObject({
    level: 'error',
    kind: 'unhandledRejection',
    error: 'Error: connection lost for [redacted]',
  });
  expect(thrown).toMatchObject({
    level: 'error',
    kind: 'uncaughtException',
    error: 'Error: thrown from a timer',
  });
  expect(figures).toEqual({ count: 2, last: { at: expect.any(String), kind: 'uncaughtException' } });
  expect(run.lines.join('\n')).not.toContain('hunter2');
});
