// The team journal: the journal interface with what the team shares on PostgreSQL (the team store) and what
// stays on this desk in its local SQLite journal (drafts being written, the outbox's keys, document images,
// and the queue, which reads the desk's replica of the team's customers). Personal data is sealed with the
// team's data keys (keys/key-ring.ts) before it leaves the desk.
import type pg from 'pg';
import type { Journal, JournalRepositories } from '#main/data/journal/interface.ts';
import { type Clock, systemClock } from '#main/data/journal/time.ts';
import { loadTeamKeys, type TeamKeys } from '../keys/key-ring.ts';
import { checkTeamSchema, TEAM_LATEST_VERSION } from '../store/migrations/index.ts';
import { teamAuditRepository } from './audit.ts';
import { teamCustomersRepository } from './customers.ts';
import { teamEventsRepository } from './events.ts';
import { teamEventInbox } from './inbox.ts';
import { teamNotesRepository } from './notes.ts';
import { teamRejectionsRepository } from './rejections.ts';
import { teamRetriesRepository } from './retries.ts';
import { storeFailure } from './store-failures.ts';
import { draftByCustomer } from './submitted-drafts.ts';
import { poolDb, type TeamDb, type TeamRepositoryContext } from './team-db.ts';
import { gated, teamUnits } from './units.ts';

export interface TeamJournalOptions {
  /** The reviewer's pool on the team store; its owner closes it. */
  pool: pg.Pool;
  /** The team key (32 bytes): opens the data keys that seal personal data for the team store. */
  teamKey: Buffer;
  /** The team's keys, when the caller read them already (the runtime does); else read here. */
  keys?: TeamKeys;
  /** This desk's own journal. */
  local: Journal;
  clock?: Clock;
  /**
   * Called with the highest change number a write drew, once it has committed and before the write
   * resolves: the desk's replica catches up there, so the queue shows the write when it resolves.
   */
  onCommitted?: (seq: number) => Promise<void>;
  /**
   * The caller checked the store itself (a desk may start while the store is unreachable: its drafts wait
   * locally and its replica catches up once the store answers).
   */
  storeChecked?: boolean;
}

/**
 * Which repository comes from where: the team store's on `team`, this desk's from `local`. Built once for
 * the journal and once per unit of work (bound to its transaction).
 */
function compose(team: TeamRepositoryContext, local: JournalRepositories): JournalRepositories {
  return {
    customers: teamCustomersRepository(team),
    queue: local.queue,
    // A submitted draft left this desk for the team outbox: the retry's pre-fill finds it there.
    drafts: { ...local.drafts, byCustomer: draftByCustomer(team, local.drafts) },
    outbox: local.outbox,
    documentImages: local.documentImages,
    events: teamEventsRepository(team),
    retries: teamRetriesRepository(team),
    audit: teamAuditRepository(team),
    rejections: teamRejectionsRepository(team),
    // Searching notes needs their text: the desk's replica holds it (the store holds it sealed). The queue's
    // rows come from the replica, and so do their latest notes: the queue answers while the store is away.
    notes: {
      ...teamNotesRepository(team),
      customersMatching: local.notes.customersMatching,
      latest: local.notes.latest,
    },
  };
}

/** Opens the team journal; throws `TeamSchemaError` for a store that is not at this Vetted's schema. */
export async function openTeamJournal({
  pool,
  teamKey,
  keys,
  local,
  clock = systemClock,
  onCommitted,
  storeChecked = false,
}: TeamJournalOptions): Promise<Journal> {
  if (!storeChecked) await checkTeamSchema(pool);
  const { cipher, sealer } = keys ?? (await loadTeamKeys(pool, teamKey));
  const context = (db: TeamDb): TeamRepositoryContext => ({ db, cipher, sealer, clock });
  const units = teamUnits({ pool, local, onCommitted, compose: (db, repos) => compose(context(db), repos) });
  // What the store refused or could not answer reaches the desk in words (a removed reviewer's, say).
  const inWords = <T>(call: Promise<T>): Promise<T> =>
    call.catch(async (error: unknown) => {
      throw await storeFailure(pool, error);
    });
  return {
    schemaVersion: TEAM_LATEST_VERSION,
    ...gated(compose(context(poolDb(pool, onCommitted)), local), (call) => inWords(units.outside(call))),
    transaction: (work, options) => inWords(units.transaction(work, options)),
    // The hub's listener records the team's webhooks straight into the team store (events unique by id).
    openInbox: (options) => teamEventInbox(context(poolDb(pool)), options),
    // The pool is its owner's to close.
    close: () => local.close(),
  };
}
