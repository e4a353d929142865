import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { createServiceClient, type ServiceClient } from '#main/data/service/index.ts';
import { type RunningListener, startListener } from '#main/features/webhooks/listener.ts';
import { createReceiver, type Receiver } from '#main/features/webhooks/receiver.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createEventHub, type EventHub } from '#main/ground/event-hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { createReconciler } from '#main/sync/reconcile/reconciler.ts';
import { startSandbox } from '#sandbox/index.ts';
import { samplePerson } from '#test/support/person.ts';

/**
 * The webhook side of a desk as the embedded default runs it, for the benches: the sandbox in this
 * process (its request log written to a file, as the app's terminal log is), the real service client
 * and reconciler, the receiver with its inbox on a journal file, and the listener. Deliveries are
 * signed with `secret`, the one a subscription of ours would have.
 */
export interface IngestRig {
  listenerUrl: string;
  serviceBase: string;
  secret: string;
  customerIds: string[];
  journal: SqliteJournal;
  receiver: Receiver;
  events: EventHub;
  client: ServiceClient;
  /** Every event recorded so far processed, and every lazy write committed. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export async function startIngestRig(options: { customers: number; secret: string }): Promise<IngestRig> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-bench-ingest-'));
  const logFile = createWriteStream(path.join(dir, 'vetted.log'));
  const log = createLogger((line) => logFile.write(`${line}\n`));
  const sandbox = await startSandbox({
    port: 0,
    data: path.join(dir, 'sandbox.db'),
    log: (line) => log.info('sandbox', { line }),
  });
  const client = createServiceClient({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
  const customerIds: string[] = [];
  for (let i = 0; i < options.customers; i++) {
    const { id } = await client.customers.create(
      samplePerson('Bench', `Ingest${i}`, `ingest-${i}@example.com`),
    );
    customerIds.push(id);
  }
  const journal = openJournal({ file: path.join(dir, 'journal.db'), dataKey: createFieldKey() });
  const events = createEventHub();
  const reconciler = createReconciler({
    journal,
    client: () => client,
    onChange: (row) => events.emit('customer.updated', row),
  });
  const receiver = createReceiver({
    journal,
    reconciler,
    events,
    log,
    notify: () => {},
    secrets: () => [options.secret],
  });
  const listener: RunningListener = await startListener(0, receiver.handlers);
  return {
    listenerUrl: listener.url,
    serviceBase: sandbox.baseUrl,
    secret: options.secret,
    customerIds,
    journal,
    receiver,
    events,
    client,
    settle: () => receiver.idle(),
    async close() {
      await listener.close();
      await receiver.close();
      await journal.close();
      await client.close();
      await sandbox.close();
      await new Promise((resolve) => logFile.end(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
