/**
 * The team bench's load generator, in a process of its own: the service sending webhook deliveries to the
 * hub's listener on the schedule of team-load-plan.ts, each signed with the team's subscription secret and
 * about the next customer in turn, at most `concurrency` in flight. Starts on the line `go`; when the
 * schedule is done, sends again whatever was never acknowledged (the service's next attempt), writes every
 * outcome to `outcomesFile` and prints one JSON line: how many were sent, and how late the schedule ran.
 */
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { deliveryBody } from './delivery-body.ts';
import { now, signedDeliveries } from './signed-deliveries.ts';
import { deliveryTimes, type TeamLoadJob } from './team-load-plan.ts';

export interface TeamLoadSummary {
  sent: number;
  attempts: number;
  redelivered: number;
  unacknowledged: number;
  startedAt: number;
  /** The latest a delivery left after its due time (a full set of `concurrency` in flight, or a slow loop). */
  maxLateMs: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as TeamLoadJob;
const deliveries = signedDeliveries(job.url, job.secret);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(): Promise<TeamLoadSummary> {
  const times = deliveryTimes(job);
  const inFlight = new Set<Promise<unknown>>();
  const startedAt = now();
  let maxLateMs = 0;
  for (const [n, due] of times.entries()) {
    const wait = startedAt + due - now();
    if (wait > 0) await sleep(wait);
    while (inFlight.size >= job.concurrency) await Promise.race(inFlight);
    maxLateMs = Math.max(maxLateMs, now() - (startedAt + due));
    const customerId = job.customerIds[n % job.customerIds.length];
    const { id, body } = deliveryBody({ ...job, ...(customerId ? { customerId } : {}) });
    const sending: Promise<unknown> = deliveries.deliver(id, body).finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  }
  await Promise.all(inFlight);
  const { redelivered, unacknowledged } = await deliveries.redeliver(job.concurrency);
  writeFileSync(job.outcomesFile, JSON.stringify(deliveries.outcomes));
  return {
    sent: deliveries.sent,
    attempts: deliveries.outcomes.length,
    redelivered,
    unacknowledged,
    startedAt,
    maxLateMs: Math.round(maxLateMs),
  };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'go') {
    process.stdout.write(`${JSON.stringify(await run())}\n`);
    break;
  }
}
process.exit(0);
