/**
 * When the team bench's load generator (team-load.ts) sends each delivery: `perMinute` on average, of which
 * `burst` come within one second every `burstEverySeconds` (mid-way through each period), the rest spread
 * evenly. 1,000 a minute with a burst of 100 every 15 s: 10 a second steadily, and 100 in a second four
 * times a minute.
 */
export interface LoadPlan {
  perMinute: number;
  burst: number;
  burstEverySeconds: number;
  seconds: number;
}

export interface TeamLoadJob extends LoadPlan {
  url: string;
  secret: string;
  serviceBase: string;
  /** Each delivery is about the next of these in turn (the bench shuffles them). */
  customerIds: string[];
  /** At most this many in flight (the service sends at most 10 at once to a receiver). */
  concurrency: number;
  outcomesFile: string;
}

/** The moments (ms after the start) deliveries are due, in order. */
export function deliveryTimes({ perMinute, burst, burstEverySeconds, seconds }: LoadPlan): number[] {
  const steadyPerMinute = perMinute - burst * (60 / burstEverySeconds);
  if (steadyPerMinute < 0) {
    throw new RangeError(`${burst} every ${burstEverySeconds} s is more than ${perMinute} a minute.`);
  }
  const end = seconds * 1000;
  const times: number[] = [];
  if (steadyPerMinute > 0) {
    const every = 60_000 / steadyPerMinute;
    for (let at = 0; at < end; at += every) times.push(at);
  }
  const period = burstEverySeconds * 1000;
  for (let start = period / 2; start < end; start += period) {
    for (let i = 0; i < burst; i++) times.push(start + (i * 1000) / burst);
  }
  return times.sort((a, b) => a - b);
}
