/**
 * The failover bench's load generator, in a process of its own: the service's side of webhook delivery.
 * It sends signed deliveries, each a fresh event about one of the customers, to the front at a steady rate,
 * at most `concurrency` in flight (the service sends at most 10 at once), and notes when each was sent and how
 * it was answered. Commands, one a line on stdin: `redeliver` sends again every delivery not acknowledged
 * (as the service does at its next attempt) until each is, then prints one JSON line; `stop` writes every
 * outcome to `outcomesFile` and prints one JSON line. Times are epoch milliseconds (performance.timeOrigin
 * + now), comparable with the bench's own.
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { deliveryBody } from './delivery-body.ts';
import { now, signedDeliveries } from './signed-deliveries.ts';

export type { Outcome } from './signed-deliveries.ts';

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

const job = JSON.parse(process.argv[2] ?? '{}') as FailoverLoadJob;
const deliveries = signedDeliveries(job.url, job.secret);
let sending = true;

/** One of `concurrency` senders, each starting a delivery every concurrency/rate seconds. */
async function sender(): Promise<void> {
  const everyMs = (job.concurrency * 1000) / job.rate;
  while (sending) {
    const started = now();
    const { id, body } = deliveryBody(job);
    await deliveries.deliver(id, body);
    const wait = everyMs - (now() - started);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Every delivery not acknowledged, sent again until it is. */
async function redeliver(): Promise<{ redelivered: number; unacknowledged: number }> {
  sending = false;
  await senders;
  return deliveries.redeliver(job.concurrency);
}

const senders = Promise.all(Array.from({ length: job.concurrency }, () => sender()));

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'redeliver') {
    process.stdout.write(`${JSON.stringify(await redeliver())}\n`);
  } else if (line === 'stop') {
    sending = false;
    await senders;
    writeFileSync(job.outcomesFile, JSON.stringify(deliveries.outcomes));
    process.stdout.write(
      `${JSON.stringify({ sent: deliveries.sent, attempts: deliveries.outcomes.length })}\n`,
    );
    break;
  }
}
process.exit(0);
