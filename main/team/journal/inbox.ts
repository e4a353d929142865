// The hub's webhook inbox on the team store. A recorded event is durable when PostgreSQL's COMMIT returns
// (synchronous_commit), and that commit, not the insert, sets the pace: so deliveries arriving while one
// commit is in flight form the next group and share one transaction (group-commit.ts, as the SQLite
// journal's inbox). `markProcessed` and `recordRejection` ride along with the next group, or go within
// SOON_MS: losing them in a crash only means processing again. Events are deduplicated by their primary key,
// so two hubs recording the same event keep one row and the later one counts as a duplicate.
// Processing comes behind the answers while deliveries pour in, as on a solo desk (inbox-backlog.ts): a
// reconcile is about ten round trips to PostgreSQL for its customer (lock, change number, row, history,
// commit, the replica's read), against one statement per group for recording, and a profile of the hub under
// a flood spent half its time writing to PostgreSQL's socket (bench/README.md). Held events are in the store
// unprocessed: after a crash the hub's start processes them.
import { createGroupCommit, type Outcome } from '#main/data/journal/group-commit.ts';
import { createInboxBacklog } from '#main/data/journal/inbox-backlog.ts';
import type { EventInbox, InboxOptions } from '#main/data/journal/interface.ts';
import { isoTime } from '#main/data/journal/time.ts';
import type { Queryable } from '../store/sql.ts';
import { type EventToRecord, markEventsProcessed, recordEvents } from './events.ts';
import { recordRejection } from './rejections.ts';
import type { TeamRepositoryContext } from './team-db.ts';

type Recorded = Awaited<ReturnType<typeof recordEvents>>;
/** Events processed, marked when (the group's marks go in one statement). */
interface Marks {
  processed: readonly string[];
  at: string;
}
/** A delivery's events (recorded with the rest of its group in one statement), marks, or any other write. */
type Write = EventToRecord[] | Marks | ((client: Queryable) => Promise<Recorded>);

const isMarks = (write: Write): write is Marks => !Array.isArray(write) && typeof write !== 'function';
const isDelivery = (write: Write): write is EventToRecord[] => Array.isArray(write);

/** Every mark of the group in one statement (each with its own time). */
async function markAll(client: Queryable, marks: readonly Marks[]): Promise<void> {
  const ids = marks.flatMap((mark) => mark.processed);
  const ats = marks.flatMap((mark) => mark.processed.map(() => mark.at));
  if (ids.length > 0) await markEventsProcessed(client, ids, ats);
}

/** One write on its own: a delivery's events, or marks, in a statement of their own. */
async function writeAlone(client: Queryable, write: Write): Promise<Recorded> {
  if (typeof write === 'function') return write(client);
  if (isDelivery(write)) return recordEvents(client, write);
  await markAll(client, [write]);
  return [];
}

/** The group's deliveries, when their ids are all different: they can go in one statement. */
function deliveriesOf(writes: readonly Write[]): EventToRecord[] | null {
  const delivered = writes.filter(isDelivery).flat();
  return new Set(delivered.map(({ event }) => event.id)).size === delivered.length ? delivered : null;
}

/** Each delivery's own rows out of the group's statement. */
function answerEach(writes: readonly EventToRecord[][], recorded: Recorded): Outcome<Recorded>[] {
  const rows = new Map(recorded.map((row) => [row.event.id, row]));
  return writes.map((write) => {
    const value = write.map(({ event }) => rows.get(event.id));
    // DO UPDATE returns every row: a missing one is the database breaking its word.
    if (value.some((row) => row === undefined)) throw new Error('The team store did not return an event.');
    return { ok: true, value: value as Recorded };
  });
}

/**
 * The group's deliveries in one statement (the hub's round trips to the store, not its work, set its pace
 * under a flood: bench/README.md), the other writes after, each answered with its own; ids repeated within
 * the group (a redelivery racing its first) go one statement each, in order.
 */
async function writeGroup(client: Queryable, writes: Write[]): Promise<Outcome<Recorded>[]> {
  const delivered = deliveriesOf(writes);
  const rows = delivered && delivered.length > 0 ? await recordEvents(client, delivered) : [];
  const outcomes: Outcome<Recorded>[] = [];
  for (const write of writes) {
    if (typeof write === 'function') outcomes.push({ ok: true, value: await write(client) });
    else if (isMarks(write)) outcomes.push({ ok: true, value: [] });
    else if (delivered) outcomes.push(...answerEach([write], rows));
    else outcomes.push({ ok: true, value: await recordEvents(client, write) });
  }
  // After the group's events: a mark never overtakes its event's insert.
  await markAll(client, writes.filter(isMarks));
  return outcomes;
}

const SOON_MS = 50;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** The inbox on `ctx.db`, which must be a pool's (each group its own transaction), not a unit of work's. */
export function teamEventInbox(
  { db, clock }: TeamRepositoryContext,
  { soonMs = SOON_MS, onRecorded, priority }: { soonMs?: number } & InboxOptions = {},
): EventInbox {
  const handOver = createInboxBacklog<Recorded>({
    priority,
    async write(batch) {
      const recorded = batch.flat();
      if (recorded.length > 0) onRecorded?.(recorded);
    },
  });
  /** One transaction for the group; if a write fails, again with a savepoint per write so it fails alone. */
  const commit = async (writes: Write[]): Promise<Outcome<Recorded>[]> => {
    try {
      // Deliveries alone (a flood defers the marks): one statement, committed by itself, in one round trip.
      const delivered = deliveriesOf(writes);
      if (delivered && writes.every(isDelivery)) {
        const recorded = await db.writeStatement((client) => recordEvents(client, delivered));
        return answerEach(writes, recorded);
      }
      // Marks alone (an event processed at an ordinary pace): one statement too, no BEGIN and COMMIT.
      if (writes.every(isMarks)) {
        await db.writeStatement((client) => markAll(client, writes));
        return writes.map(() => ({ ok: true, value: [] }));
      }
      return await db.write((client) => writeGroup(client, writes));
    } catch {
      return db.write(async (client) => {
        const outcomes: Outcome<Recorded>[] = [];
        for (const write of writes) {
          await client.query('SAVEPOINT inbox_write');
          try {
            outcomes.push({ ok: true, value: await writeAlone(client, write) });
            await client.query('RELEASE SAVEPOINT inbox_write');
          } catch (error) {
            await client.query('ROLLBACK TO SAVEPOINT inbox_write');
            outcomes.push({ ok: false, error: asError(error) });
          }
        }
        return outcomes;
      });
    }
  };
  const group = createGroupCommit<Write, Recorded>({ soonMs, commit });
  const later = async (write: (client: Queryable) => Promise<void>) => {
    await group.write(async (client) => {
      await write(client);
      return [];
    }, 'soon');
  };

  return {
    stats: group.stats,
    // The store's commit is the durable step and the table write at once; what waits is the processing.
    get behind() {
      return handOver.events;
    },
    async flush() {
      await group.flush();
      await handOver.flush();
    },
    async record(received, { delivered }) {
      const receivedAt = isoTime(clock());
      const records = received.map(({ processed, ...event }) => ({ event, processed, receivedAt }));
      const recorded = await group.write(
        delivered
          ? records
          : // Fetched events already known are left alone (no row back): a duplicate counts deliveries only.
            async (client) => {
              const results: Recorded = [];
              for (const record of records) {
                results.push(...(await recordEvents(client, [record], { onlyIfAbsent: true })));
              }
              return results;
            },
      );
      if (recorded.length > 0) handOver.push(recorded, recorded.length);
      return recorded;
    },
    async markProcessed(ids) {
      await group.write({ processed: ids, at: isoTime(clock()) }, 'soon');
    },
    recordRejection(entry) {
      const at = isoTime(clock());
      return later((client) => recordRejection(client, entry, at));
    },
    async close() {
      await group.flush().catch(() => {});
      group.refuse(new Error('The webhook inbox is closed.'));
    },
  };
}
