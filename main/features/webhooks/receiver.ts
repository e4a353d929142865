import type { EventInbox, Journal } from '#main/data/journal/index.ts';
import type { EventHub } from '#main/ground/event-hub.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import type { Reconciler } from '#main/sync/reconcile/reconciler.ts';
import { latencyRecorder, type WebhookFigures } from '../diagnostics/metrics.ts';
import { createDeliveryPressure } from './delivery-pressure.ts';
import { createEventProcessor, type EventProcessor } from './event-processor.ts';
import { createIngest, type Ingest } from './ingest.ts';
import type { ListenerHandlers } from './listener.ts';
import type { Notify } from './notify.ts';
import { createSecurityLog, type SecurityLog } from './security-log.ts';
import { isSignedBy } from './signature.ts';
import { createProbeRegistry, type ProbeRegistry } from './tunnel-check.ts';

/**
 * Everything behind the listener, wired once: signature check, durable deduplicated ingest with
 * grouped commits (on main's thread: a hand-off to the thread pool cost more than the fdatasync it moved,
 * bench/README.md), processing (reconcile, notify), the security log and tunnel probes.
 */
export interface Receiver {
  handlers: ListenerHandlers;
  ingest: Ingest;
  processor: EventProcessor;
  writer: EventInbox;
  security: SecurityLog;
  probes: ProbeRegistry;
  /** Requests the listener refused since start. */
  readonly rejected: number;
  /** Counts since start, backlogs now, recent latencies: for `app.metrics`. */
  figures(): WebhookFigures;
  /** Resolves once every event recorded so far is in the journal, processed, and its mark written. */
  idle(): Promise<void>;
  /**
   * Stops processing (what runs finishes), lets `drain` finish whatever still records events (a catch-up
   * under way), then commits what waits and closes the writer.
   */
  close(drain?: () => Promise<unknown>): Promise<void>;
}

export interface ReceiverOptions {
  journal: Journal;
  reconciler: Reconciler;
  events: EventHub;
  log: Logger;
  notify: Notify;
  /** The secrets a genuine delivery may be signed with, read at each delivery. */
  secrets(): string[];
  retryDelayMs?: number;
  /** No screen looks: recorded events are not announced as event rows (webhooks/index.ts `headless`). */
  headless?: boolean;
}

export function createReceiver(options: ReceiverOptions): Receiver {
  const { journal, events, log } = options;
  const pressure = createDeliveryPressure();
  // Events reach the processor once in the journal, which under a flood of deliveries is behind the answers.
  const writer = journal.openInbox({
    priority: pressure,
    onRecorded: (recorded) => ingest.recorded(recorded),
  });
  const ingestLatency = latencyRecorder();
  const eventToScreen = latencyRecorder();
  let deliveries = 0;
  let duplicates = 0;
  let answering = 0;
  const security = createSecurityLog(writer, log);
  const processor = createEventProcessor({
    journal,
    reconciler: options.reconciler,
    writer,
    notify: options.notify,
    log,
    eventToScreen,
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
  });
  const ingest = createIngest({ journal, writer, processor, events, log, announce: !options.headless });
  const probes = createProbeRegistry();
  return {
    ingest,
    processor,
    writer,
    security,
    probes,
    get rejected() {
      return security.count;
    },
    figures: () => ({
      deliveries,
      duplicates,
      refusals: security.count,
      inboxBacklog: answering,
      eventsBehind: writer.behind,
      reconcileBacklog: processor.backlog,
      refreshes: processor.refreshes,
      ingest: ingestLatency.summary(),
      eventToScreen: eventToScreen.summary(),
    }),
    async idle() {
      // Into the tables (behind the answers under load), then processed, then the marks written.
      await writer.flush();
      await processor.idle();
      await writer.flush();
    },
    async close(drain) {
      ingest.close();
      await processor.close();
      await drain?.();
      await writer.close();
      pressure.close();
    },
    handlers: {
      verify: (body, signature) => isSignedBy(body, signature, options.secrets()),
      async deliver(body) {
        const started = performance.now();
        pressure.arrived();
        answering++;
        try {
          const answer = await ingest.deliver(body);
          if (answer.status === 200) {
            deliveries++;
            if (answer.body.duplicate === true) duplicates++;
            ingestLatency.add(performance.now() - started);
          }
          return answer;
        } finally {
          answering--;
          pressure.answered();
        }
      },
      reject: (rejection) => security.record(rejection),
      probe: (nonce, path) => probes.arrived(nonce, path),
    },
  };
}
