import type { Progress } from '#contract/customers.ts';
import type { CatchUpResult } from '#contract/webhooks.ts';
import { failureMessage } from '#main/data/failures.ts';
import { beyondRetention, type EventsApi, inBackground } from '#main/data/service/index.ts';
import type { DeskContext } from '../feature.ts';
import type { Ingest } from './ingest.ts';
import type { Receiver } from './receiver.ts';
import type { Subscriptions } from './subscriptions.ts';

/**
 * Events missed while Vetted was not listening: `GET /events` (newest first) page by page, back to
 * the newest event the journal already had, recording each one it lacks exactly as if it had been
 * delivered (without a signature to verify: the authenticated API vouches for it).
 *
 * "Already had" means recorded before this run's `since`: an event delivered a moment ago (say, a
 * retry that arrived as Vetted started) may sit above older ones still missing, so it is no landmark.
 * Ids, not times, decide: another service's events (after switching) or a sandbox clock moved ahead
 * cannot stop the paging early.
 */
export interface CatchUpOptions {
  events: EventsApi;
  ingest: Ingest;
  /** Whether this event was in the journal before the run began. */
  knownBefore(id: string): boolean | Promise<boolean>;
  pageSize?: number;
  onProgress?(seen: number, total: number): void;
  stopped?(): boolean;
}

export interface CatchUpPass {
  /** Events new to the journal. */
  recorded: number;
  /** Stopped before reaching a known event or the end (closing). */
  interrupted: boolean;
}

export async function catchUpEvents(options: CatchUpOptions): Promise<CatchUpPass> {
  const pageSize = options.pageSize ?? 100;
  let recorded = 0;
  let offset = 0;
  // Paging stops at the retention too (by the service's clock: its newest event), so a service that
  // keeps more, or a journal that never saw this one, never pages through its whole history.
  let newest: string | undefined;
  // Bounded by the total the first page announced: events arriving meanwhile shift pages, which only
  // shows some twice (the journal ignores the second), never skips one.
  for (let total = 1, pages = 0; offset < total && pages <= total / pageSize + 1; pages++) {
    if (options.stopped?.()) return { recorded, interrupted: true };
    const page = await options.events.list({ limit: pageSize, offset });
    total = page.total;
    newest ??= page.events[0]?.created;
    const landmark = await findIndex(
      page.events,
      async (event) =>
        (newest !== undefined && beyondRetention(event.created, newest)) || options.knownBefore(event.id),
    );
    const missed = landmark < 0 ? page.events : page.events.slice(0, landmark);
    recorded += await options.ingest.recordFetched(missed);
    offset += page.events.length;
    options.onProgress?.(Math.min(offset, total), total);
    if (landmark >= 0 || page.events.length === 0) break;
  }
  return { recorded, interrupted: false };
}

/** The first index whose item passes the check, checked in order (each may ask the journal). */
async function findIndex<T>(
  items: readonly T[],
  check: (item: T) => boolean | Promise<boolean>,
): Promise<number> {
  for (const [index, item] of items.entries()) if (await check(item)) return index;
  return -1;
}

const PAUSED_MESSAGE =
  'A webhook subscription of Vetted is paused: the service sends nothing to it. Resume it to receive events again.';

/**
 * The catch-up job, one run at a time (a second request joins the running one): pages back, waits
 * for every event to be processed, and looks for paused subscriptions of ours, whose deliveries the
 * service keeps unsent. Progress goes out as `job.progress`, the outcome as `webhooks.caughtUp`.
 */
export function createCatchUp(options: {
  context: DeskContext;
  receiver: Pick<Receiver, 'ingest' | 'processor'>;
  subscriptions: Subscriptions;
  stopped(): boolean;
}): { run(): Promise<CatchUpResult> } {
  const { context } = options;
  const { ingest, processor } = options.receiver;
  const { journal, events, log } = options.context;
  // Taken before the listener can record anything: what the journal held by then is where paging stops.
  let knownSince = new Date().toISOString();
  const knownBefore = async (id: string) => {
    const event = await journal.events.get(id);
    return event !== undefined && event.receivedAt < knownSince;
  };
  const progress = (update: Omit<Progress, 'job'>) =>
    events.emit('job.progress', { job: 'catch-up', ...update });

  const pausedOfOurs = async () => {
    try {
      const subscriptions = (await options.subscriptions.list()).filter((s) => s.ours && s.paused);
      return { subscriptions, message: subscriptions.length > 0 ? PAUSED_MESSAGE : null };
    } catch (error) {
      return {
        subscriptions: [],
        message: `Could not check the subscriptions: ${failureMessage(error, log, 'checking the subscriptions')}`,
      };
    }
  };

  const fetchAndProcess = async (): Promise<{ recorded: number; message: string | null }> => {
    const startedAt = new Date().toISOString();
    try {
      processor.resumeUnprocessed();
      const pass = await inBackground(() =>
        catchUpEvents({
          events: context.connection().client().events,
          ingest,
          knownBefore,
          onProgress: (done, total) => progress({ done, total, finished: false, message: null }),
          stopped: options.stopped,
        }),
      );
      // Everything from before this run is in the journal now: the next run stops at what it had by then.
      if (!pass.interrupted) knownSince = startedAt;
      await processor.idle();
      const unfinished = (await journal.events.unprocessed()).length > 0;
      return {
        recorded: pass.recorded,
        message: unfinished ? 'Some events could not be processed yet; Vetted tries again shortly.' : null,
      };
    } catch (error) {
      return {
        recorded: 0,
        message: `Could not catch up on missed events: ${failureMessage(error, log, 'catching up')}`,
      };
    }
  };

  const runOnce = async (): Promise<CatchUpResult> => {
    const processedBefore = processor.processed;
    progress({ done: 0, total: null, finished: false, message: null });
    const fetched = await fetchAndProcess();
    const paused = await pausedOfOurs();
    const message = fetched.message ?? paused.message;
    const result: CatchUpResult = {
      recorded: fetched.recorded,
      processed: processor.processed - processedBefore,
      pausedSubscriptions: paused.subscriptions,
      message,
    };
    if (!options.stopped()) {
      progress({ done: fetched.recorded, total: fetched.recorded, finished: true, message });
      events.emit('webhooks.caughtUp', result);
    }
    return result;
  };

  let running: Promise<CatchUpResult> | null = null;
  return {
    run() {
      running ??= runOnce().finally(() => {
        running = null;
      });
      return running;
    },
  };
}
