/**
 * The outbox against the same work done directly. The subject drains drafts through the outbox (validation
 * with the contract rules, keys committed before the requests, POST with the key, the link recorded, the new
 * customer fetched and recorded with its personal data) at concurrency 8. The baseline does the same requests
 * directly through the service client at the same concurrency: a keyed `POST /customers` followed by the GET
 * of the created customer (goal: the outbox ≥ 0.9 of it). The same without a key is reported too. Then a drain
 * while the sandbox fails 10 % of customer requests (500 and resets after the work is done, 503 before it)
 * counts duplicates on the service (goal: 0). A fourth run is a reference with no goal: the keyed pair, then
 * the writes the outbox makes for a created draft done directly (support/outbox-runs.ts
 * `directCreatesRecorded`): what recording each customer in the journal leaves of the direct rate.
 *
 * Samples interleave (keyed, outbox, unkeyed, recorded, keyed, outbox, …), each on a fresh sandbox warmed up with the
 * same work; medians are reported. The sandbox (the load's other end) runs in a worker thread of its own;
 * the outbox and the baseline's client both run on this process's main thread, as the desk's would.
 *
 *   node bench/outbox.ts [--drafts 1000] [--concurrency 8] [--rounds 3] [--fault-rate 0.1]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import {
  directCreates,
  directCreatesRecorded,
  outboxDrain,
  type Sample,
  withFaults,
} from './support/outbox-runs.ts';
import { onFreshSandbox } from './support/sandbox-worker.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const perSecond = (n: number) => `${Math.round(n).toLocaleString('en')}/s`;

async function main() {
  const { values } = parseArgs({
    options: {
      drafts: { type: 'string', default: '1000' },
      concurrency: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      'fault-rate': { type: 'string', default: '0.1' },
    },
  });
  const count = Number(values.drafts);
  const concurrency = Number(values.concurrency);
  const rounds = Math.max(3, Number(values.rounds));
  const faultRate = Number(values['fault-rate']);
  const warmUp = Math.min(200, count);

  const keyedSamples: Sample[] = [];
  const unkeyedSamples: Sample[] = [];
  const drainedSamples: Sample[] = [];
  const recordedSamples: Sample[] = [];
  const direct = (withKey: boolean) =>
    onFreshSandbox(
      (client) => directCreates(client, count, concurrency, withKey),
      (client) => directCreates(client, warmUp, concurrency, withKey),
    );
  const drain = () =>
    onFreshSandbox(
      (client) => outboxDrain(client, count, concurrency),
      (client) => outboxDrain(client, warmUp, concurrency),
    );
  const directRecorded = () =>
    onFreshSandbox(
      (client) => directCreatesRecorded(client, count, concurrency),
      (client) => directCreatesRecorded(client, warmUp, concurrency),
    );
  for (let round = 0; round < rounds; round++) {
    keyedSamples.push(await direct(true));
    drainedSamples.push(await drain());
    unkeyedSamples.push(await direct(false));
    recordedSamples.push(await directRecorded());
    const [k, o, u, r] = [keyedSamples, drainedSamples, unkeyedSamples, recordedSamples].map(
      (samples) => samples.at(-1)!,
    );
    console.info(
      `round ${round + 1}: keyed POST+GET ${perSecond(k!.perSecond)}, outbox ${perSecond(o!.perSecond)}, ` +
        `unkeyed POST+GET ${perSecond(u!.perSecond)}, keyed POST+GET recorded ${perSecond(r!.perSecond)}; ` +
        `main-thread CPU per customer ${k!.cpuMicros.toFixed(0)} / ${o!.cpuMicros.toFixed(0)} / ` +
        `${u!.cpuMicros.toFixed(0)} / ${r!.cpuMicros.toFixed(0)} µs`,
    );
  }
  const keyed = keyedSamples.map((sample) => sample.perSecond);
  const unkeyed = unkeyedSamples.map((sample) => sample.perSecond);
  const drained = drainedSamples.map((sample) => sample.perSecond);
  const recorded = recordedSamples.map((sample) => sample.perSecond);
  const cpu = (samples: Sample[]) => `${median(samples.map((sample) => sample.cpuMicros)).toFixed(0)} µs`;
  const { duplicates, rate: faulted } = await onFreshSandbox(
    (client, sandbox, token) =>
      withFaults(sandbox, token, faultRate, count, () => outboxDrain(client, count, concurrency)),
    (client) => outboxDrain(client, warmUp, concurrency),
  );

  const ratio = median(drained) / median(keyed);
  const unkeyedRatio = median(drained) / median(unkeyed);
  const recordedRatio = median(recorded) / median(keyed);
  console.info(
    `${count} drafts, concurrency ${concurrency}, medians of ${rounds}, sandbox in a worker thread`,
  );
  console.info(`direct keyed POST + GET:    ${perSecond(median(keyed))}`);
  console.info(`direct unkeyed POST + GET:  ${perSecond(median(unkeyed))}`);
  console.info(`outbox (created, linked, fetched, recorded): ${perSecond(median(drained))}`);
  console.info(
    `direct keyed POST + GET, then the outbox's writes done directly: ${perSecond(median(recorded))} ` +
      `(${recordedRatio.toFixed(3)} of the keyed pair: what recording alone allows)`,
  );
  console.info(
    `main-thread CPU per customer: outbox ${cpu(drainedSamples)}, keyed ${cpu(keyedSamples)}, ` +
      `unkeyed ${cpu(unkeyedSamples)}, keyed and recorded ${cpu(recordedSamples)}`,
  );
  console.info(`ratio to keyed ${ratio.toFixed(3)} (goal ≥ 0.9), to unkeyed ${unkeyedRatio.toFixed(3)}`);
  console.info(
    `with ${Math.round(faultRate * 100)} % faults: ${perSecond(faulted)}, ${duplicates} duplicates`,
  );
  console.info(
    `load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const result = {
    rows: [
      {
        figure: 'outbox drain vs keyed POST + GET sent directly (c=8)',
        goal: '≥ 0.9',
        measured:
          `${ratio.toFixed(2)} (${perSecond(median(drained))} vs ${perSecond(median(keyed))}); ` +
          `vs unkeyed ${unkeyedRatio.toFixed(2)}`,
        ratio: Number(ratio.toFixed(3)),
        verdict: ratio >= 0.9 ? 'pass' : 'miss',
      },
      {
        figure:
          'keyed POST + GET, recorded directly (a reference: what recording allows), vs keyed POST + GET',
        goal: '—',
        measured: `${recordedRatio.toFixed(2)} (${perSecond(median(recorded))}); the outbox reaches ${(ratio / recordedRatio).toFixed(2)} of it`,
        ratio: Number(recordedRatio.toFixed(3)),
        verdict: 'pass',
      },
      {
        figure: `outbox duplicates, ${count} drafts with ${Math.round(faultRate * 100)} % faults`,
        goal: '0',
        measured: `${duplicates} (${perSecond(faulted)})`,
        ratio: null,
        verdict: duplicates === 0 ? 'pass' : 'miss',
      },
    ],
  };
  console.info(`RESULT ${JSON.stringify(result)}`);
  if (duplicates !== 0) process.exitCode = 1;
}

await main();
