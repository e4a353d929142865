import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createFieldKey } from '../../main/crypto.ts';
import { type Journal, openJournal, type ServiceCustomer } from '../../main/journal/index.ts';
import { detachedJournal } from './detached-journal.ts';

const tempDirs: string[] = [];
const openJournals: Journal[] = [];

afterEach(async () => {
  for (const journal of openJournals.splice(0)) await journal.close();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-journal-'));
  tempDirs.push(dir);
  return dir;
}

export function journalFile(): string {
  return path.join(tempDir(), 'data', 'journal.db');
}

/** A clock that only moves when told to, so that "longest waiting" is decided by the test. */
export function manualClock(start = '2026-03-01T09:00:00.000Z') {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    iso: () => new Date(now).toISOString(),
  };
}

export const MINUTE = 60_000;

/** The journal under test, typed as the interface: every test here runs against any implementation of it. */
export function openTestJournal(
  options: { file?: string; dataKey?: Buffer; clock?: () => Date; actor?: string } = {},
): Journal {
  const sqlite = openJournal({
    file: options.file ?? journalFile(),
    dataKey: options.dataKey ?? createFieldKey(),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.actor ? { actor: options.actor } : {}),
  });
  const journal = process.env.VETTED_TEST_JOURNAL === 'detached' ? detachedJournal(sqlite) : sqlite;
  openJournals.push(journal);
  return journal;
}

const BASE = 'https://api.service.test';

/** A customer as the service answers for it. */
export function serviceCustomer(overrides: Partial<ServiceCustomer> & { id: string }): ServiceCustomer {
  const { id } = overrides;
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    email: `${id}@example.com`,
    type: 'personal',
    status: 'verified',
    created: '2026-02-01T08:00:00.000Z',
    _links: { self: { href: `${BASE}/customers/${id}`, type: 'application/vnd.service.v1.hal+json' } },
    ...overrides,
  };
}
