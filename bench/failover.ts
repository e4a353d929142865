/**
 * The hub fails over (#29): how long a team is deaf when its leading hub is killed with SIGKILL under load.
 * One PostgreSQL (a throwaway cluster), the sandbox in this process as the service (the customers the
 * deliveries are about, the reconciler's GETs), two real hub processes (the real core) behind one front
 * (test/support/network/front-relay.ts: the team's tunnel or load balancer, in this process), and the load generator
 * in a process of its own (support/failover-load.ts): signed deliveries at a steady rate, as the service
 * sends them. The leader is killed `--kills` times, each at a random moment of the standby's retry cycle; each
 * time the standby takes the role and the killed hub is started again as the new standby. Per kill:
 *  - deaf: from the kill to the first delivery sent after it that is answered 200 (the service's view);
 *  - waiting: from the kill to the standby taking the lock (its log), bounded by its retry interval;
 *  - taking: from taking the lock to that first 200 (loading the secrets, binding the listener).
 * The bound is the retry interval plus the slowest taking. At the end the generator sends again every
 * delivery never acknowledged (the service's next attempt), and the store must hold each delivery once.
 * Run: `npx node bench/failover.ts [--kills 5] [--rate 100] [--retry-seconds 5] [--settle-seconds 2]`
 * (Node 24). Takes about kills × (retry + 6) s.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createServiceClient } from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';
import { startFrontRelay } from '#test/support/network/front-relay.ts';
import { samplePerson } from '#test/support/person.ts';
import { startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { type HubProcess, startHubFleet } from '#test/support/team/hub-fleet.ts';
import type { FailoverLoadJob, Outcome } from './support/failover-load.ts';
import { loadNote } from './support/machine.ts';
import { atMost, median, printResult, type ResultRow } from './support/protocol.ts';
import { teamSubscriptionSecret } from './support/team-secret.ts';

const { values: args } = parseArgs({
  options: {
    kills: { type: 'string', default: '5' },
    rate: { type: 'string', default: '100' },
    'retry-seconds': { type: 'string', default: '5' },
    'settle-seconds': { type: 'string', default: '2' },
    customers: { type: 'string', default: '50' },
  },
});
const KILLS = Number(args.kills);
const RATE = Number(args.rate);
const RETRY_SECONDS = Number(args['retry-seconds']);
const SETTLE_MS = Number(args['settle-seconds']) * 1000;
const CUSTOMERS = Number(args.customers);
const GOAL_SECONDS = 10;
const TOOK_ROLE = 'hub: took the listener role; starting the listener';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** When `hub` last logged taking the role, after `after` (epoch ms), from its log file. */
function tookRoleAt(hub: HubProcess, after: number): number {
  const lines = readFileSync(path.join(hub.dir, 'vetted.log'), 'utf8').split('\n').filter(Boolean);
  const times = lines
    .map((line) => JSON.parse(line) as { at: string; msg: string })
    .filter((line) => line.msg === TOOK_ROLE)
    .map((line) => Date.parse(line.at))
    .filter((at) => at >= after - 1);
  return times.at(-1) ?? Number.NaN;
}

function startLoad(job: FailoverLoadJob) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, 'support/failover-load.ts'), JSON.stringify(job)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const ask = async <T>(command: string): Promise<T> => {
    child.stdin.write(`${command}\n`);
    const next = await lines.next();
    if (next.done) throw new Error(`the load generator ended before answering ${command}`);
    return JSON.parse(next.value) as T;
  };
  return { ask, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-failover-'));
const cluster = await startPgCluster();
const sandbox = await startSandbox({ port: 0 });
const backends: number[] = [];
const front = await startFrontRelay(backends);
const rows: ResultRow[] = [];
let fleetClose: (() => Promise<void>) | undefined;
try {
  const adminUrl = await cluster.createDatabase('failover');
  const service = createServiceClient(sandbox);
  const customerIds: string[] = [];
  for (let i = 0; i < CUSTOMERS; i++) {
    customerIds.push(
      (await service.customers.create(samplePerson('Bench', `Failover${i}`, `failover-${i}@example.com`))).id,
    );
  }
  await service.close();
  const fleet = await startHubFleet(adminUrl, {
    hubs: 2,
    service: sandbox,
    publicUrl: front.url,
    retrySeconds: RETRY_SECONDS,
  });
  fleetClose = () => fleet.close();
  backends.push(...fleet.ports);
  const hubs: HubProcess[] = [fleet.start(0)];
  await hubs[0]!.leading();
  hubs.push(fleet.start(1));
  await hubs[1]!.standingBy();

  const secret = await teamSubscriptionSecret(adminUrl, fleet.keyFile);
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();

  const outcomesFile = path.join(dir, 'outcomes.json');
  const load = startLoad({
    url: front.url,
    secret,
    serviceBase: sandbox.baseUrl,
    customerIds,
    rate: RATE,
    concurrency: 10,
    outcomesFile,
  });
  process.stdout.write(
    `2 hub processes behind one front, standby retry ${RETRY_SECONDS} s; deliveries at ${RATE}/s (≤ 10 in flight) ` +
      `from a process of their own; ${KILLS} kills, ${SETTLE_MS / 1000} s of steady load between them; ${loadNote()}\n`,
  );
  await sleep(SETTLE_MS);
  const kills: Array<{ at: number; took: number; said: number }> = [];
  let leader = 0;
  for (let k = 0; k < KILLS; k++) {
    const standby = 1 - leader;
    const at = now();
    await hubs[leader]!.kill();
    await hubs[standby]!.leading(RETRY_SECONDS * 1000 + 60_000);
    const said = now();
    kills.push({ at, took: tookRoleAt(hubs[standby]!, at), said });
    hubs[leader] = fleet.start(leader);
    await hubs[leader]!.standingBy();
    leader = standby;
    // A kill at any moment of the standby's retry cycle, not always at the same one (the loop has a rhythm).
    await sleep(SETTLE_MS + Math.random() * RETRY_SECONDS * 1000);
  }
  const redelivery = await load.ask<{ redelivered: number; unacknowledged: number }>('redeliver');
  const sent = await load.ask<{ sent: number; attempts: number }>('stop');
  await load.exited;
  const outcomes = JSON.parse(readFileSync(outcomesFile, 'utf8')) as Outcome[];

  const figures = kills.map((kill) => {
    const firstAnswer = Math.min(
      ...outcomes.filter((o) => o.sentAt >= kill.at && o.status === 200).map((o) => o.doneAt),
    );
    return {
      deaf: firstAnswer - kill.at,
      waiting: kill.took - kill.at,
      taking: firstAnswer - kill.took,
      said: kill.said - kill.at,
    };
  });
  for (const [i, f] of figures.entries()) {
    process.stdout.write(
      `  kill ${i + 1}: deaf ${seconds(f.deaf)} s = waiting for the lock ${seconds(f.waiting)} s + taking the role ` +
        `${seconds(f.taking)} s (the hub said it leads after ${seconds(f.said)} s)\n`,
    );
  }
  const deaf = figures.map((f) => f.deaf);
  const taking = figures.map((f) => f.taking);
  const bound = RETRY_SECONDS * 1000 + Math.max(...taking);
  process.stdout.write(
    `deaf: median ${seconds(median(deaf))} s, max ${seconds(Math.max(...deaf))} s; bound = standby retry ` +
      `${RETRY_SECONDS} s + taking the role (max ${seconds(Math.max(...taking))} s) = ${seconds(bound)} s; ${loadNote()}\n`,
  );

  // Every delivery sent, acknowledged (after the redeliveries) and in the store once; the ones answered 200
  // before a kill were never lost (their row is the delivery's own: signature verified).
  const ids = [...new Set(outcomes.map((o) => o.id))];
  const acked = new Set(outcomes.filter((o) => o.status === 200).map((o) => o.id));
  const stored = await db.query<{ n: string; verified: string; duplicates: string }>(
    `SELECT count(*) AS n, count(*) FILTER (WHERE signature_verified) AS verified,
            count(*) FILTER (WHERE duplicates_seen > 0) AS duplicates
       FROM vetted.events WHERE id = ANY($1::text[])`,
    [ids],
  );
  await db.end();
  const { n, verified, duplicates } = stored.rows[0]!;
  const missing = ids.length - Number(n);
  process.stdout.write(
    `${sent.sent} deliveries (${sent.attempts} attempts, ${redelivery.redelivered} sent again after the kills); ` +
      `${acked.size} acknowledged, ${redelivery.unacknowledged} never; in the store: ${n} (${verified} from ` +
      `their delivery), ${duplicates} seen more than once (an answer lost, the redelivery absorbed)\n`,
  );
  rows.push(
    atMost(
      `team deaf after kill -9 of the leading hub (max of ${KILLS}, standby retry ${RETRY_SECONDS} s)`,
      Math.max(...deaf) / 1000,
      GOAL_SECONDS,
      ' s',
      `max ${seconds(Math.max(...deaf))} s, median ${seconds(median(deaf))} s; bound ${seconds(bound)} s`,
    ),
    {
      figure: 'deliveries lost across the kills (each in the store once after the redeliveries)',
      goal: '0',
      measured: `${missing + redelivery.unacknowledged} of ${ids.length}`,
      ratio: missing + redelivery.unacknowledged,
      verdict:
        missing === 0 && redelivery.unacknowledged === 0 && Number(verified) === ids.length ? 'pass' : 'miss',
    },
  );
} finally {
  await fleetClose?.();
  await front.close();
  await sandbox.close();
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
}
printResult(rows);
