/**
 * Webhook ingest: signed deliveries into Vetted's listener (signature check over the raw bytes,
 * JSON, a durable deduplicated record in the journal with grouped commits, then processing) against
 * a bare node:http server answering 200 on the same port: same load generator, same process, same
 * run, at 10 and 50 connections. Afterwards, every delivery answered 200 must be in the journal
 * exactly once. Run: `node bench/webhooks.ts` (Node 24). Takes about 25 s.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createFieldKey } from '../main/crypto.ts';
import type { Reconciler } from '../main/customers/reconcile.ts';
import { createEventHub } from '../main/event-hub.ts';
import { type Journal, openJournal } from '../main/journal/index.ts';
import { createLogger } from '../main/log.ts';
import { startListener, WEBHOOK_PATH } from '../main/webhooks/listener.ts';
import { createReceiver } from '../main/webhooks/receiver.ts';
import { signBody } from '../main/webhooks/signature.ts';

const DURATION_SECONDS = 5;
const WARMUP_SECONDS = 1;
const CONCURRENCIES = [10, 50];
const GOAL = 0.6;
const SECRET = randomUUID();

/** Every request a fresh event (a fresh id), signed as the service signs it. */
function signedDelivery(context: Record<string, unknown>): autocannon.Request {
  const id = randomUUID();
  const customerId = randomUUID();
  const created = new Date().toISOString();
  const body = JSON.stringify({
    _links: { customer: { href: `https://api.service.test/customers/${customerId}` } },
    id,
    created,
    timestamp: created,
    topic: 'customer_verified',
    resourceId: customerId,
  });
  context.id = id;
  return {
    method: 'POST',
    path: WEBHOOK_PATH,
    body,
    headers: {
      'content-type': 'application/json',
      'x-request-signature-sha-256': signBody(body, SECRET),
    },
  };
}

interface Measured {
  perSecond: number;
  non2xx: number;
  errors: number;
}

/** Warm-up, then the measured run; `acknowledged` gets the id of every delivery answered 200. */
async function measure(port: number, connections: number, acknowledged: Set<string>): Promise<Measured> {
  const run = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      duration,
      requests: [
        {
          setupRequest: (_request, context) => signedDelivery(context as Record<string, unknown>),
          onResponse: (status, _body, context) => {
            if (status === 200) acknowledged.add((context as { id: string }).id);
          },
        },
      ],
    });
  await run(WARMUP_SECONDS);
  const result = await run(DURATION_SECONDS);
  return {
    perSecond: result.requests.average,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

function listenOn(server: Server, port: number): Promise<void> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await listenOn(probe, 0);
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function bare(port: number, connections: number): Promise<Measured> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await listenOn(server, port);
  try {
    return await measure(port, connections, new Set());
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The listener as the desk runs it, with a reconciler that answers at once (no service in the loop). */
async function vetted(
  port: number,
  connections: number,
  journal: Journal,
): Promise<{ measured: Measured; acknowledged: Set<string>; grouping: string }> {
  const reconciler: Reconciler = {
    refresh: async () => undefined,
    refreshAll: async () => ({ done: 0, failed: 0 }),
  };
  const receiver = createReceiver({
    journal,
    reconciler,
    events: createEventHub(),
    log: createLogger(() => {}),
    notify: () => {},
    secrets: () => [SECRET],
  });
  const listener = await startListener(port, receiver.handlers);
  const acknowledged = new Set<string>();
  try {
    const measured = await measure(port, connections, acknowledged);
    const { commits, writes, committingMs } = receiver.writer.stats;
    const grouping =
      `${(writes / Math.max(commits, 1)).toFixed(1)} writes per commit, ` +
      `${(committingMs / Math.max(commits, 1)).toFixed(1)} ms per commit`;
    return { measured, acknowledged, grouping };
  } finally {
    await listener.close();
    await receiver.processor.idle();
    await receiver.processor.close();
    await receiver.writer.close();
  }
}

/** Every acknowledged id recorded, none counted twice (each request carried a new id). */
async function verify(journal: Journal, acknowledged: Set<string>): Promise<string> {
  let missing = 0;
  let duplicated = 0;
  for (const id of acknowledged) {
    const event = await journal.events.get(id);
    if (!event) missing++;
    else if (event.duplicatesSeen !== 0) duplicated++;
  }
  const { total } = await journal.events.window({}, { offset: 0, limit: 1 });
  if (missing > 0 || duplicated > 0) {
    process.exitCode = 1;
    return `FAILED: ${missing} acknowledged events missing, ${duplicated} duplicated`;
  }
  // Events committed whose 200 arrived after autocannon stopped listening are in the journal but not counted.
  return `all ${acknowledged.size} acknowledged events in the journal exactly once (${total} rows)`;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-webhooks-'));
try {
  const port = await freePort();
  process.stdout.write(
    `journal: ${dir} (synchronous=FULL); ${DURATION_SECONDS} s per run, same port ${port}\n`,
  );
  for (const connections of CONCURRENCIES) {
    const journal = openJournal({
      file: path.join(dir, `journal-${connections}.db`),
      dataKey: createFieldKey(),
    });
    try {
      const baseline = await bare(port, connections);
      const { measured, acknowledged, grouping } = await vetted(port, connections, journal);
      const ratio = measured.perSecond / baseline.perSecond;
      process.stdout.write(
        `concurrency ${String(connections).padStart(2)}: bare ${baseline.perSecond.toFixed(0).padStart(6)} req/s   ` +
          `vetted ${measured.perSecond.toFixed(0).padStart(6)} events/s   ratio ${ratio.toFixed(2)} (goal ≥ ${GOAL})   ` +
          `non-2xx ${measured.non2xx}, errors ${measured.errors}\n` +
          `               ${grouping}\n` +
          `               ${await verify(journal, acknowledged)}\n`,
      );
      if (measured.non2xx > 0 || measured.errors > 0) process.exitCode = 1;
    } finally {
      await journal.close();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
