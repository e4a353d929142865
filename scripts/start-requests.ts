// How many requests a start makes against a large account in its first minute, with the client's
// request budget (`--rate`, `--burst`: the settings' defaults unless given).
//
//   node scripts/start-requests.ts [--customers 100000] [--seconds 60] [--rate 10] [--burst 20]
//
// A stand-in of today's real service (token at /token, form body + Basic) on 127.0.0.1 counts what
// it receives, second by second. The start is what the desk does: a token, then, in the background
// and sharing one budget, the start-up reconcile (GET each customer whose status may still change,
// 8 at a time, oldest status first, as `createReconciler().refreshAll` does) and the catch-up (GET
// /events pages, newest first) and the subscription list. Real time: it takes `--seconds`.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { DEFAULT_BUDGET } from '#main/data/service/budget.ts';
import { createServiceClient, inBackground } from '#main/data/service/index.ts';
import { DEFAULT_RECONCILE_CONCURRENCY } from '#main/sync/reconcile/reconciler.ts';

const { values } = parseArgs({
  options: {
    customers: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '60' },
    rate: { type: 'string', default: String(DEFAULT_BUDGET.ratePerSecond) },
    burst: { type: 'string', default: String(DEFAULT_BUDGET.burst) },
  },
});
const customers = Number(values.customers);
const seconds = Number(values.seconds);
const HAL = 'application/vnd.service.v1.hal+json';

const started = Date.now();
const perSecond: number[] = Array.from({ length: 3600 }, () => 0);
const byKind: Record<string, number> = {};
const server = createServer((req, res) => {
  const second = Math.floor((Date.now() - started) / 1000);
  perSecond[second] = (perSecond[second] ?? 0) + 1;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const kind = path.startsWith('/customers/') ? 'GET /customers/{id}' : `${req.method} ${path}`;
  byKind[kind] = (byKind[kind] ?? 0) + 1;
  const send = (status: number, body: unknown, type = HAL) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(JSON.stringify(body));
  };
  req.resume();
  if (path === '/token') {
    return send(
      200,
      { access_token: randomUUID(), token_type: 'Bearer', expires_in: 3600 },
      'application/json',
    );
  }
  if (path.startsWith('/customers/')) {
    const id = path.slice('/customers/'.length);
    const created = '2026-11-01T10:00:00.000Z';
    return send(200, {
      _links: {},
      id,
      firstName: 'Jane',
      lastName: 'Doe',
      email: `${id}@example.com`,
      type: 'personal',
      status: 'retry',
      created,
    });
  }
  if (path === '/events') return send(200, { _links: {}, _embedded: { events: [] }, total: 0 });
  if (path === '/webhook-subscriptions') {
    return send(200, { _links: {}, _embedded: { 'webhook-subscriptions': [] }, total: 0 });
  }
  send(404, { code: 'notFound', message: 'Not found.' });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const client = createServiceClient({
  baseUrl,
  clientId: 'start-requests',
  clientSecret: 'start-requests-secret',
  budget: { ratePerSecond: Number(values.rate), burst: Number(values.burst) },
});
let stop = false;
const ids = Array.from(
  { length: customers },
  (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
);

await client.token.get();
const reconcile = inBackground(async () => {
  let next = 0;
  const worker = async () => {
    while (!stop && next < ids.length)
      await client.customers.get(ids[next++] as string).catch(() => undefined);
  };
  await Promise.all(Array.from({ length: DEFAULT_RECONCILE_CONCURRENCY }, worker));
});
const catchUp = inBackground(async () => {
  await client.events.list({ limit: 100, offset: 0 });
  await client.subscriptions.list();
});
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
stop = true;
const firstWindow = perSecond.slice(0, seconds);
const total = firstWindow.reduce((sum, n) => sum + n, 0);
await client.close();
await Promise.allSettled([reconcile, catchUp]);
server.close();

const peak = Math.max(...firstWindow);
process.stdout.write(
  `account: ${customers} customers to reconcile; budget ${values.rate}/s, burst ${values.burst}\n`,
);
process.stdout.write(`requests in the first ${seconds} s: ${total} (busiest second: ${peak})\n`);
process.stdout.write(`by kind, until the last request in flight ended: ${JSON.stringify(byKind)}\n`);
process.stdout.write(`per second: ${firstWindow.join(' ')}\n`);
