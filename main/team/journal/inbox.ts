// The hub's webhook inbox on the team store. A recorded event is durable when PostgreSQL's COMMIT returns
// (synchronous_commit), and that commit, not the insert, sets the pace: so deliveries arriving while one
// commit is in flight form the next group and share one transaction (group-commit.ts, as the SQLite
// journal's inbox). `markProcessed` and `recordRejection` ride along with the next group, or go within
// SOON_MS: losing them in a crash only means processing again. Events are deduplicated by their primary key,
// so two hubs recording the same event keep one row and the later one counts as a duplicate.
import { createGroupCommit, type Outcome } from '../../journal/group-commit.ts';
import type { EventInbox, InboxOptions } from '../../journal/interface.ts';
import { isoTime } from '../../journal/time.ts';
import type { Queryable } from '../store/sql.ts';
import { markEventsProcessed, recordEvent } from './events.ts';
import { recordRejection } from './rejections.ts';
import type { TeamRepositoryContext } from './team-db.ts';

type Recorded = Awaited<ReturnType<typeof recordEvent>>;
type Write = (client: Queryable) => Promise<Recorded>;

const SOON_MS = 50;

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/** The inbox on `ctx.db`, which must be a pool's (each group its own transaction), not a unit of work's. */
export function teamEventInbox(
  { db, clock }: TeamRepositoryContext,
  { soonMs = SOON_MS, onRecorded }: { soonMs?: number } & Pick<InboxOptions, 'onRecorded'> = {},
): EventInbox {
  /** One transaction for the group; if a write fails, again with a savepoint per write so it fails alone. */
  const commit = async (writes: Write[]): Promise<Outcome<Recorded>[]> => {
    try {
      return await db.write(async (client) => {
        const outcomes: Outcome<Recorded>[] = [];
        for (const write of writes) outcomes.push({ ok: true, value: await write(client) });
        return outcomes;
      });
    } catch {
      return db.write(async (client) => {
        const outcomes: Outcome<Recorded>[] = [];
        for (const write of writes) {
          await client.query('SAVEPOINT inbox_write');
          try {
            outcomes.push({ ok: true, value: await write(client) });
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
    // The store's commit is the durable step and the table write at once: nothing is kept behind.
    behind: 0,
    flush: () => group.flush(),
    async record(received, { delivered }) {
      const receivedAt = isoTime(clock());
      const recorded = await group.write(async (client) => {
        const results: Recorded = [];
        // Fetched events already known are left alone (no row back): a duplicate counts deliveries only.
        for (const { processed, ...event } of received) {
          results.push(
            ...(await recordEvent(client, event, { processed, onlyIfAbsent: !delivered, receivedAt })),
          );
        }
        return results;
      });
      if (recorded.length > 0) onRecorded?.(recorded);
      return recorded;
    },
    markProcessed(ids) {
      const at = isoTime(clock());
      return later((client) => markEventsProcessed(client, ids, at));
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
