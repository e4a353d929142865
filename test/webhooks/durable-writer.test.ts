import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFieldKey } from '../../main/crypto.ts';
import { type DurableWriter, startDurableWriter } from '../../main/journal/durable-writer.ts';
import { type SqliteJournal as Journal, openJournal, type ReceivedEvent } from '../../main/journal/index.ts';

const event = (id: string): ReceivedEvent => ({
  id,
  topic: 'customer_verified',
  resourceId: 'c-1',
  customerId: 'c-1',
  created: '2026-03-01T10:00:00.000Z',
  signatureVerified: true,
});

/** The listener's journal writes: on their own connection in a worker, grouped, durable once resolved. */
describe('durable writer', () => {
  let dir: string;
  let journal: Journal;
  let writer: DurableWriter;
  const record = (id: string) => [journal.events.statements.record(event(id))];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-writer-'));
    journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
    writer = startDurableWriter(journal.file);
  });
  afterEach(async () => {
    await writer.close();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits before it resolves: another connection reads the row at once', async () => {
    const [[row]] = (await writer.write(record('e-1'))) as [[Record<string, unknown>]];
    expect(journal.events.fromRow(row)).toMatchObject({ id: 'e-1', duplicatesSeen: 0 });
    const reader = new DatabaseSync(journal.file, { readOnly: true });
    try {
      expect(reader.prepare('SELECT id FROM events').all()).toEqual([{ id: 'e-1' }]);
    } finally {
      reader.close();
    }
  });

  it('groups writes asked for together, and those asked for while a group commits', async () => {
    const first = Promise.all(['a', 'b', 'c'].map((id) => writer.write(record(id))));
    await new Promise((resolve) => setImmediate(resolve));
    // The first group is on its way to disk; these gather into the next one.
    const second = Promise.all(['d', 'e', 'f', 'g'].map((id) => writer.write(record(id))));
    await Promise.all([first, second]);
    expect(writer.stats).toMatchObject({ commits: 2, writes: 7 });
    expect(await journal.events.list({ limit: 10 })).toHaveLength(7);
  });

  it('restarts a worker killed mid-group; every write that resolved is on disk, and writing goes on', async () => {
    await writer.close();
    const workers: Worker[] = [];
    writer = startDurableWriter(journal.file, undefined, { onWorker: (worker) => workers.push(worker) });
    const before = ['k-1', 'k-2', 'k-3'].map((id) => writer.write(record(id)));
    await new Promise((resolve) => setImmediate(resolve)); // the group is posted to the worker
    const meanwhile = ['k-4', 'k-5'].map((id) => writer.write(record(id)));
    await workers[0]!.terminate();
    const outcomes = await Promise.allSettled([...before, ...meanwhile]);
    expect(workers).toHaveLength(2);
    // The group in flight may or may not have reached the disk: it fails, so nothing of it is acknowledged.
    for (const outcome of outcomes.slice(0, 3)) {
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/restarted/);
    }
    // What waited for the next group goes to the new worker.
    expect(outcomes.slice(3).map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    await writer.write(record('k-6'));
    const stored = new Set((await journal.events.list({ limit: 10 })).map((e) => e.id));
    ['k-1', 'k-2', 'k-3', 'k-4', 'k-5', 'k-6'].forEach((id, i) => {
      if (i >= 3 || outcomes[i]?.status === 'fulfilled') expect(stored.has(id), id).toBe(true);
    });
    expect(stored.has('k-6')).toBe(true);
  });

  it('gives up on a worker that keeps dying, failing every write in words', async () => {
    await writer.close();
    const workers: Worker[] = [];
    writer = startDurableWriter(journal.file, undefined, { onWorker: (worker) => workers.push(worker) });
    for (let kill = 0; kill < 6; kill++) {
      const pending = writer.write(record(`d-${kill}`)).catch((error: unknown) => error);
      await workers.at(-1)!.terminate();
      await pending;
    }
    await expect(writer.write(record('after'))).rejects.toThrow(/stopped 6 times in a minute/);
  });

  it('fails only the write that failed', async () => {
    const bad = { sql: 'INSERT INTO events (id) VALUES (:id)', params: { id: 'broken' } };
    const [ok, failed] = await Promise.allSettled([writer.write(record('kept')), writer.write([bad])]);
    expect(ok.status).toBe('fulfilled');
    expect(failed).toMatchObject({
      status: 'rejected',
      reason: { message: expect.stringMatching(/NOT NULL/) },
    });
    expect((await journal.events.list()).map((e) => e.id)).toEqual(['kept']);
  });

  it('commits what waits on close, then refuses more', async () => {
    const soon = writer.writeSoon(record('late'));
    await writer.close();
    await soon;
    expect(await journal.events.get('late')).toBeDefined();
    await expect(writer.write(record('after'))).rejects.toThrow(/closed/);
  });
});
