/**
 * The failover bench's load generator, in a process of its own: the service's side of webhook delivery.
 * It sends signed deliveries, each a fresh event about one of the customers, to the front at a steady rate,
 * at most `concurrency` in flight (the service sends at most 10 at once), and notes when each was sent and how
 * it was answered. Commands, one a line on stdin: `redeliver` sends again every delivery not acknowledged
 * (as the service does at its next attempt) until each is, then prints one JSON line; `stop` writes every
 * outcome to `outcomesFile` and prints one JSON line. Times are epoch milliseconds (performance.timeOrigin
 * + now), comparable with the bench's own.
 */
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { deliveryBody } from './delivery-body.ts';

export interface FailoverLoadJob {
  url: string;
  secret: string;
  serviceBase: string;
  customerIds: string[];
  /** Deliveries started per second. */
  rate: number;
  concurrency: number;
  outcomesFile: string;
}

/** One attempt: `status` 0 when no HTTP answer came (cut, refused, timed out). */
export interface Outcome {
  id: string;
  sentAt: number;
  doneAt: number;
  status: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as FailoverLoadJob;
const now = () => performance.timeOrigin + performance.now();
const outcomes: Outcome[] = [];
const bodies = new Map<string, string>();
const acknowledged = new Set<string>();
let sending = true;

function newDelivery(): { id: string; body: string } {
  const delivery = deliveryBody(job);
  bodies.set(delivery.id, delivery.body);
  return delivery;
}

async function deliver(id: string, body: string): Promise<void> {
  const sentAt = now();
  let status = 0;
  try {
    const response = await fetch(job.url, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-request-signature-sha-256': createHmac('sha256', job.secret).update(body).digest('hex'),
      },
      // The service gives a receiver 10 s.
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    status = 0;
  }
  outcomes.push({ id, sentAt, doneAt: now(), status });
  if (status >= 200 && status < 300) acknowledged.add(id);
}

/** One of `concurrency` senders, each starting a delivery every concurrency/rate seconds. */
async function sender(): Promise<void> {
  const everyMs = (job.concurrency * 1000) / job.rate;
  while (sending) {
    const started = now();
    const { id, body } = newDelivery();
    await deliver(id, body);
    const wait = everyMs - (now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Every delivery not acknowledged, sent again until it is (at most 20 rounds). */
async function redeliver(): Promise<{ redelivered: number; unacknowledged: number }> {
  sending = false;
  await senders;
  let redelivered = 0;
  for (let round = 0; round < 20; round++) {
    const waiting = [...bodies.keys()].filter((id) => !acknowledged.has(id));
    if (waiting.length === 0) break;
    for (let i = 0; i < waiting.length; i += job.concurrency) {
      const batch = waiting.slice(i, i + job.concurrency);
      redelivered += batch.length;
      await Promise.all(batch.map((id) => deliver(id, bodies.get(id) ?? '')));
    }
  }
  return { redelivered, unacknowledged: bodies.size - acknowledged.size };
}

const senders = Promise.all(Array.from({ length: job.concurrency }, () => sender()));

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'redeliver') {
    process.stdout.write(`${JSON.stringify(await redeliver())}\n`);
  } else if (line === 'stop') {
    sending = false;
    await senders;
    writeFileSync(job.outcomesFile, JSON.stringify(outcomes));
    process.stdout.write(`${JSON.stringify({ sent: bodies.size, attempts: outcomes.length })}\n`);
    break;
  }
}
process.exit(0);
