/**
 * The load generator's own process (never the server's thread): autocannon against one URL, either
 * plain requests or signed webhook deliveries, each with a fresh event id. Reads its job as JSON from
 * argv[2], prints the outcome as one JSON line, and (for deliveries) writes the acknowledged ids to a file.
 */
import { createHmac, createSecretKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { deliveryBody } from './delivery-body.ts';
import type { LoadJob, LoadOutcome } from './load.ts';

const job = JSON.parse(process.argv[2] ?? '{}') as LoadJob;
const acknowledged: string[] = [];

function delivery(context: Record<string, unknown>, webhook: NonNullable<LoadJob['webhook']>) {
  webhookKey ??= createSecretKey(Buffer.from(webhook.secret));
  const key = webhookKey;
  const { id, body } = deliveryBody(webhook);
  context.id = id;
  return {
    method: 'POST' as const,
    path: new URL(job.url).pathname,
    body,
    headers: {
      'content-type': 'application/json',
      'x-request-signature-sha-256': createHmac('sha256', key).update(body).digest('hex'),
    },
  };
}
let webhookKey: ReturnType<typeof createSecretKey> | undefined;

const run = (duration: number, record: boolean) =>
  autocannon({
    url: job.url,
    connections: job.connections,
    ...(record && job.amount !== undefined ? { amount: job.amount } : { duration }),
    headers: job.headers ?? {},
    ...(job.webhook
      ? {
          requests: [
            {
              setupRequest: (_request: unknown, context: Record<string, unknown>) =>
                delivery(context, job.webhook!),
              onResponse: (status: number, _body: string, context: Record<string, unknown>) => {
                if (record && status === 200) acknowledged.push(String(context.id));
              },
            },
          ],
        }
      : {}),
  } as autocannon.Options);

const warmup = job.warmupSeconds > 0 ? await run(job.warmupSeconds, false) : null;
const result = await run(job.seconds, true);
if (job.acknowledgedFile) writeFileSync(job.acknowledgedFile, acknowledged.join('\n'));
const outcome: LoadOutcome = {
  perSecond: result.requests.average,
  total: result.requests.total,
  warmupTotal: warmup?.requests.total ?? 0,
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors + result.timeouts,
};
process.stdout.write(`${JSON.stringify(outcome)}\n`);
