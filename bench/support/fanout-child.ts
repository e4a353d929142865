/**
 * The processes of bench/fanout.ts, one role each (argv[2]), talking to the bench over IPC:
 * - `listeners URL N`: N sessions LISTENing on the store, as N desks listen today; counts what each hears.
 * - `hub URL`: the fan-out prototype — ONE session LISTENing, and an HTTP server that streams every notification
 *   it hears to each connected desk (server-sent events); answers `cpu` with its own CPU seconds.
 * - `desks PORT M`: M desks following the hub's stream; counts what each receives.
 * - `sender URL K BYTES`: the writer — K notifications of BYTES each, one committed transaction apiece, as the
 *   hub's deliveries announce their rows; then exits.
 * Counting roles answer `{ expect: n }` with `{ done }` once every one of their sessions or desks has n in all
 * (each child serves one measurement: n is what the sender sends).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

export const CHANNEL = 'vetted_fanout_bench';

type Message = { expect?: number; cpu?: true };

const send = (message: unknown) => process.send?.(message);

/** Counts per follower; tells the bench once all have `expected`. */
function counter(size: number) {
  const counts = new Array<number>(size).fill(0);
  let expected = Number.POSITIVE_INFINITY;
  const check = () => {
    if (counts.every((count) => count >= expected)) {
      expected = Number.POSITIVE_INFINITY;
      send({ done: true });
    }
  };
  process.on('message', (message: Message) => {
    if (message.expect === undefined) return;
    expected = message.expect;
    check();
  });
  return (index: number, by = 1) => {
    counts[index]! += by;
    if (counts[index]! >= expected) check();
  };
}

async function listeners(url: string, n: number): Promise<void> {
  const heard = counter(n);
  const clients: pg.Client[] = [];
  for (let i = 0; i < n; i++) {
    const client = new pg.Client({ connectionString: url, application_name: 'fanout-listener' });
    await client.connect();
    client.on('notification', () => heard(i));
    await client.query(`LISTEN ${CHANNEL}`);
    clients.push(client);
  }
  send({ ready: true });
}

async function hub(url: string): Promise<void> {
  const streams = new Set<http.ServerResponse>();
  const client = new pg.Client({ connectionString: url, application_name: 'fanout-hub' });
  await client.connect();
  client.on('notification', (note) => {
    const event = `data: ${note.payload}\n\n`;
    for (const stream of streams) stream.write(event);
  });
  await client.query(`LISTEN ${CHANNEL}`);
  const server = http.createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    response.flushHeaders();
    streams.add(response);
    request.on('close', () => streams.delete(response));
  });
  server.listen(0, '127.0.0.1', () => send({ ready: true, port: (server.address() as AddressInfo).port }));
  process.on('message', (message: Message) => {
    if (!message.cpu) return;
    const { user, system } = process.cpuUsage();
    send({ cpu: (user + system) / 1e6, streams: streams.size });
  });
}

async function desks(port: number, m: number): Promise<void> {
  const received = counter(m);
  const agent = new http.Agent({ keepAlive: true, maxSockets: m });
  await Promise.all(
    Array.from(
      { length: m },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const request = http.get({ host: '127.0.0.1', port, path: '/changes', agent }, (response) => {
            response.setEncoding('utf8');
            let tail = '';
            response.on('data', (chunk: string) => {
              const text = tail + chunk;
              const events = text.split('\n\n');
              tail = events.pop() ?? '';
              if (events.length > 0) received(i, events.length);
            });
            resolve();
          });
          request.on('error', reject);
        }),
    ),
  );
  send({ ready: true });
}

async function sender(url: string, k: number, bytes: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'fanout-sender' });
  await client.connect();
  // A customer row's JSON is about this size (sealed personal data in base64): the payload each listener reads.
  const payload = JSON.stringify({ table: 'customers', row: 'x'.repeat(Math.max(0, bytes - 40)) });
  for (let i = 0; i < k; i++) await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
  await client.end();
  send({ sent: k });
}

const [role, a = '', b = '', c = ''] = process.argv.slice(2);
const started =
  role === 'listeners'
    ? listeners(a, Number(b))
    : role === 'hub'
      ? hub(a)
      : role === 'desks'
        ? desks(Number(a), Number(b))
        : role === 'sender'
          ? sender(a, Number(b), Number(c))
          : Promise.reject(new Error(`fanout-child: no role ${role}`));
started.catch((error: unknown) => {
  process.stderr.write(`fanout-child ${role}: ${String(error)}\n`);
  process.exit(1);
});
process.on('disconnect', () => process.exit(0));
