// A desk started while its team store is away (#37) works from its own journal; the moment the store answers,
// the first connection that reaches it reads the team's data keys before it serves anything, so the first
// note written after is sealed under the team's current data key and reads back. Intervals are fake and never
// advanced: no timer (the 5 s one that used to reload the keys) has any part in it.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, expect, test, vi } from 'vitest';
import type { ServiceClient } from '#main/data/service/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { ensureEnvelopeKeys } from '#main/team/keys/key-ring.ts';
import { openTeamRuntime, type TeamRuntime } from '#main/team/runtime.ts';
import { TeamConnectionError } from '#main/team/store/connection-error.ts';
import { freePort } from '#test/support/free-port.ts';
import { type FaultProxy, startFaultProxy } from '#test/support/network/fault-proxy.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { makeTeamStore, type TestTeamStore } from '#test/support/team/team-store.ts';
import { serviceCustomer } from '../data/journal/helpers.ts';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const close of closing.splice(0).reverse()) await close();
});

/** A team runtime (a data directory of its own, its log lines kept) that looks for the store at `port`. */
async function openLookingAt(
  store: TestTeamStore,
  port: number,
  role: 'desk' | 'hub',
): Promise<{ runtime: TeamRuntime; lines: string[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetted-away-'));
  closing.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const lines: string[] = [];
  const runtime = await openTeamRuntime({
    team: { ...store, connection: { ...store.connection, port } },
    role,
    dataDir,
    dataKey: createFieldKey(),
    log: createLogger((line) => lines.push(line)),
    client: () => ({}) as ServiceClient,
    onCustomersChanged: () => undefined,
    drains: false,
  });
  closing.push(() => runtime.close());
  return { runtime, lines };
}

test('started while the store is away, a desk reads its keys as the store answers: the first note after is sealed and reads back', async () => {
  const url = await freshDatabase();
  const store = await makeTeamStore(url);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  closing.push(() => admin.end());
  await ensureEnvelopeKeys(admin, store.teamKey);
  const current = (await admin.query(`SELECT key_id FROM vetted.team_keys WHERE current`)).rows[0].key_id;

  // The desk looks for the store on a port where nothing answers yet.
  const port = await freePort();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  const { runtime, lines } = await openLookingAt(store, port, 'desk');
  expect(lines.join('\n')).toContain('team store unreachable at start');
  // Meanwhile a call to the store fails in words.
  const away = await runtime.journal.notes.list('c-1').catch((error: unknown) => error);
  expect(away).toBeInstanceOf(TeamConnectionError);
  expect(away).toMatchObject({
    kind: 'unreachable',
    message: `The team store at ${store.connection.host}:${port} could not be reached (is PostgreSQL running there?).`,
  });

  // The store answers where the desk looks.
  const relay: FaultProxy = await startFaultProxy(
    { host: store.connection.host, port: store.connection.port },
    port,
  );
  closing.push(() => relay.close());
  await runtime.journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), {
    source: 'created',
  });
  const note = await runtime.journal.notes.add({ customerId: 'c-1', text: 'written as the store came back' });

  expect(note.text).toBe('written as the store came back');
  const { rows } = await admin.query<{ body: string }>('SELECT body FROM vetted.notes');
  expect(rows.map((row) => row.body.split(':')[0])).toEqual([current]);
  expect(await runtime.journal.notes.list('c-1')).toMatchObject([{ text: 'written as the store came back' }]);
  expect(lines.join('\n')).toContain('team store answers: its keys are read');
  expect(vi.getTimerCount()).toBe(1); // the drafts' flush, never fired
});

/** A server that answers every connection as PostgreSQL does while it starts up or recovers: FATAL 57P03. */
async function startingUp(port: number): Promise<() => Promise<void>> {
  const fields = ['SFATAL', 'VFATAL', 'C57P03', 'Mthe database system is starting up'];
  const body = Buffer.concat([...fields.map((field) => Buffer.from(`${field}\0`)), Buffer.from([0])]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(body.length + 4, 1);
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.once('data', () => socket.end(Buffer.concat([header, body])));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

test('started while the store starts up (57P03, as after a restart or a promotion), a hub opens and works from its journal', async () => {
  const store = await makeTeamStore(await freshDatabase());
  const port = await freePort();
  closing.push(await startingUp(port));
  const { runtime, lines } = await openLookingAt(store, port, 'hub');
  expect(lines.join('\n')).toContain('team store unreachable at start');
  const refused = await runtime.journal.notes.list('c-1').catch((error: unknown) => error);
  expect(refused).toMatchObject({
    kind: 'server',
    message: expect.stringMatching(/cannot take connections now/),
  });
});
