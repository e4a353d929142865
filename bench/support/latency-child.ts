/**
 * The page's side of the latency bench, in a process of its own: an event-stream client on the browser
 * host (as the open page is) and the sender of signed deliveries at a steady rate, each about a customer
 * the desk has not seen, so that each one ends in exactly one `customer.updated`. Both ends share this
 * process's clock. Reads its job as JSON from argv[2]; prints the latencies (ms) as one JSON line.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import { request } from 'undici';

interface Job {
  listenerUrl: string;
  eventsUrl: string;
  secret: string;
  serviceBase: string;
  customerIds: string[];
  /** Sent first and waited for, not counted: this process's first requests (connections, code compiled). */
  warmUpIds: string[];
  perSecond: number;
  /** How long to wait for the last pushes once everything is sent. */
  graceMs: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const key = createSecretKey(Buffer.from(job.secret));
const sentAt = new Map<string, number>();

const stream = await request(job.eventsUrl, { method: 'GET', headers: { accept: 'text/event-stream' } });
if (stream.statusCode !== 200) throw new Error(`event stream: HTTP ${stream.statusCode}`);
let buffered = '';
/** Latencies of the current phase (warm-up, then the measured run) and how many of it are still expected. */
let latencies: number[] = [];
let failures = 0;
let expected = 0;
let allIn: () => void = () => {};
const reading = (async () => {
  for await (const chunk of stream.body) {
    const at = performance.now();
    buffered += chunk.toString();
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      if (!frame.startsWith('data: ')) continue;
      const { event, payload } = JSON.parse(frame.slice(6)) as { event: string; payload: { id?: string } };
      if (event !== 'customer.updated' || !payload.id) continue;
      const sent = sentAt.get(payload.id);
      if (sent === undefined) continue;
      sentAt.delete(payload.id);
      latencies.push(at - sent);
      if (latencies.length + failures === expected) allIn();
    }
  }
})();

/** Event ids stay unique across phases: a repeated id would be taken for a redelivery. */
let sent = 0;
async function deliver(customerId: string): Promise<void> {
  const index = sent++;
  const created = new Date().toISOString();
  const href = `${job.serviceBase}/customers/${customerId}`;
  const body = JSON.stringify({
    _links: { customer: { href }, resource: { href } },
    id: `latency-${process.pid}-${index}`,
    created,
    timestamp: created,
    topic: 'customer_verified',
    resourceId: customerId,
  });
  sentAt.set(customerId, performance.now());
  const res = await request(job.listenerUrl, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-request-signature-sha-256': createHmac('sha256', key).update(body).digest('hex'),
    },
  });
  await res.body.dump();
  if (res.statusCode !== 200) {
    failures++;
    sentAt.delete(customerId);
  }
}

/**
 * One phase: deliveries at a steady rate by the clock, not by answers (a slow answer does not slow the
 * sender, as with the service); resolves once each is pushed or `graceMs` after the last send.
 */
async function phase(
  customerIds: string[],
): Promise<{ latencies: number[]; failures: number; seconds: number }> {
  latencies = [];
  failures = 0;
  expected = customerIds.length;
  const done = new Promise<void>((resolve) => {
    allIn = resolve;
  });
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (const [index, customerId] of customerIds.entries()) {
    const due = started + (index * 1000) / job.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    sends.push(deliver(customerId));
  }
  await Promise.all(sends);
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((resolve) => (grace = setTimeout(resolve, job.graceMs)))]);
  clearTimeout(grace);
  return { latencies, failures, seconds: (performance.now() - started) / 1000 };
}

// The first deliveries of a fresh process pay for its connections and for compiling the code they run
// (here and in the desk): 16–35 ms each, enough to make the p99 of 800 alone. The figure is the steady state.
await phase(job.warmUpIds);
sentAt.clear();
const measured = await phase(job.customerIds);
stream.body.destroy();
await reading.catch(() => {});
process.stdout.write(`${JSON.stringify({ ...measured, missing: sentAt.size })}\n`);
