import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { createReceiver } from '#main/features/webhooks/receiver.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { deliver, eventBody, recordingReconciler, SECRET } from './helpers.ts';

const CHILD = path.join(import.meta.dirname, 'fixtures', 'crashing-listener.ts');

/** A listener in its own process, killed with SIGKILL: what it acknowledged must survive. */
describe('webhook inbox after a crash', () => {
  let dir: string;
  let file: string;
  let dataKey: Buffer;
  let child: ChildProcess | null = null;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-inbox-crash-'));
    file = path.join(dir, 'journal.db');
    dataKey = createFieldKey();
    // Created (and migrated) here, so the child and the restart share one journal.
    await openJournal({ file, dataKey }).close();
  });
  afterEach(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const startChild = (...extra: string[]) => {
    const started = spawn(process.execPath, [CHILD, file, SECRET, ...extra], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, VETTED_TEST_DATA_KEY: dataKey.toString('base64') },
    });
    child = started;
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      started.once('exit', (_, signal) => resolve(signal)),
    );
    const port = new Promise<number>((resolve, reject) => {
      let out = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /PORT (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      started.once('exit', () => reject(new Error(`the listener exited before listening: ${out}`)));
    });
    return { port, exited };
  };

  /** The journal reopened as the app restarts it: the inbox replays its log, the processor resumes. */
  const restart = async () => {
    const journal: SqliteJournal = openJournal({ file, dataKey });
    const { reconciler, refreshed } = recordingReconciler();
    const receiver = createReceiver({
      journal,
      reconciler,
      events: createEventHub(),
      log: createLogger(() => {}),
      notify: () => {},
      secrets: () => [SECRET],
    });
    receiver.processor.resumeUnprocessed();
    await receiver.processor.idle();
    await receiver.writer.flush();
    return {
      journal,
      receiver,
      refreshed,
      async close() {
        await receiver.close();
        await journal.close();
      },
    };
  };

  it('processes after a restart every delivery acknowledged before kill -9, and ignores its redelivery', async () => {
    const { port: listening, exited } = startChild();
    const port = await listening;
    const customers = Array.from({ length: 20 }, () => randomUUID());
    const bodies = customers.map((customerId) => eventBody({ customerId }));
    const replies = await Promise.all(bodies.map((body) => deliver(port, body)));
    expect(replies.map((reply) => reply.status)).toEqual(Array(20).fill(200));
    child?.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const restarted = await restart();
    try {
      expect([...restarted.refreshed].sort()).toEqual([...customers].sort());
      for (const body of bodies) {
        const event = await restarted.journal.events.get(JSON.parse(body).id);
        expect(event?.processedAt).not.toBeNull();
        expect(event?.duplicatesSeen).toBe(0);
      }
      // The service sends one again (it never saw the 200, say): recorded once, counted as a duplicate.
      const again = await restarted.receiver.ingest.deliver(Buffer.from(bodies[0]!));
      expect(again.body).toEqual({ received: JSON.parse(bodies[0]!).id, duplicate: true });
      await restarted.receiver.processor.idle();
      expect(restarted.refreshed).toHaveLength(20);
    } finally {
      await restarted.close();
    }
  });

  it('replays a group that reached the inbox log but not the journal when the process died', async () => {
    const { port, exited } = startChild('--die-after-log');
    const customerId = randomUUID();
    const body = eventBody({ customerId });
    // Killed between the log's sync and the journal write: the sender never gets its answer (its
    // connection is reset, which this helper does not report).
    void deliver(await port, body);
    expect(await exited).toBe('SIGKILL');

    const restarted = await restart();
    try {
      expect(restarted.receiver.writer).toMatchObject({ replayed: 1 });
      const event = await restarted.journal.events.get(JSON.parse(body).id);
      expect(event).toMatchObject({ customerId, signatureVerified: true, duplicatesSeen: 0 });
      expect(event?.processedAt).not.toBeNull();
      expect(restarted.refreshed).toEqual([customerId]);
    } finally {
      await restarted.close();
    }
  });
});
