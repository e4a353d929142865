/**
 * The service's side of webhook delivery, for the load generators that run in processes of their own
 * (failover-load.ts, team-load.ts): each delivery signed over its body with the subscription's secret, POSTed
 * with the service's 10 s limit, its outcome noted; what was never acknowledged is sent again, as the service
 * does at its next attempt. Times are epoch milliseconds (performance.timeOrigin + now), comparable between
 * processes on one machine.
 */
import { createHmac, createSecretKey } from 'node:crypto';

/** One attempt: `status` 0 when no HTTP answer came (cut, refused, timed out). */
export interface Outcome {
  id: string;
  sentAt: number;
  doneAt: number;
  status: number;
}

export const now = (): number => performance.timeOrigin + performance.now();

export interface SignedDeliveries {
  /** Sends one delivery (a new one, or one sent before) and notes its outcome. */
  deliver(id: string, body: string): Promise<Outcome>;
  /** Every delivery not acknowledged, sent again until it is (at most 20 rounds, `concurrency` at a time). */
  redeliver(concurrency: number): Promise<{ redelivered: number; unacknowledged: number }>;
  readonly outcomes: readonly Outcome[];
  /** Deliveries made (each counted once, however often sent). */
  readonly sent: number;
}

export function signedDeliveries(url: string, secret: string): SignedDeliveries {
  const key = createSecretKey(Buffer.from(secret));
  const outcomes: Outcome[] = [];
  const bodies = new Map<string, string>();
  const acknowledged = new Set<string>();

  const deliver = async (id: string, body: string): Promise<Outcome> => {
    bodies.set(id, body);
    const sentAt = now();
    let status = 0;
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'x-request-signature-sha-256': createHmac('sha256', key).update(body).digest('hex'),
        },
        // The service gives a receiver 10 s.
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch {
      status = 0;
    }
    const outcome = { id, sentAt, doneAt: now(), status };
    outcomes.push(outcome);
    if (status >= 200 && status < 300) acknowledged.add(id);
    return outcome;
  };

  return {
    deliver,
    async redeliver(concurrency) {
      let redelivered = 0;
      for (let round = 0; round < 20; round++) {
        const waiting = [...bodies.keys()].filter((id) => !acknowledged.has(id));
        if (waiting.length === 0) break;
        for (let i = 0; i < waiting.length; i += concurrency) {
          const batch = waiting.slice(i, i + concurrency);
          redelivered += batch.length;
          await Promise.all(batch.map((id) => deliver(id, bodies.get(id) ?? '')));
        }
      }
      return { redelivered, unacknowledged: bodies.size - acknowledged.size };
    },
    get outcomes() {
      return outcomes;
    },
    get sent() {
      return bodies.size;
    },
  };
}
