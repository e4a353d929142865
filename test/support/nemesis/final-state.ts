// The team once the faults are healed: first a bounded wait until it has settled (every draft sent, every
// webhook processed, the store's last change standing still and in every desk's replica), then what the
// checker reads, from whichever node is the primary by then: the service's customers by e-mail, the store's
// outbox, notes (opened with the team key), approvals, claims and audit chain (verified as `team
// verify-audit` does), each desk's replica's rows, and the standby's (once it has replayed everything).
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { readKeyFile } from '#admin/key-file.ts';
import { verifyStoreAudit } from '#admin/verify-audit.ts';
import { createServiceClient } from '#main/data/service/index.ts';
import { NOTE_COLUMNS, NoteRowSchema, noteOf } from '#main/team/journal/notes.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import type { RunningSandbox } from '#sandbox/index.ts';
import { waitFor } from '../wait-for.ts';
import type { AuditLine, FinalState, Op, ReplicaImage } from './history.ts';
import { type NemesisStore, standbyCaughtUp } from './store.ts';

const REPLICATED = ['customers', 'status_history', 'notes', 'retries', 'claims'];

interface StoreNow {
  last: number;
  events: number;
  drafts: number;
  /** The queued drafts' leases still running, in seconds (a lost outcome waits its lease out). */
  leases: number[];
}

async function storeNow(admin: pg.Pool): Promise<StoreNow> {
  const { rows } = await admin.query<{
    last: string | null;
    events: string;
    drafts: string;
    leases: number[];
  }>(
    `SELECT greatest(${REPLICATED.map((t) => `(SELECT max(seq) FROM vetted.${t})`).join(', ')}) AS last,
            (SELECT count(*) FROM vetted.events WHERE processed_at IS NULL) AS events,
            (SELECT count(*) FROM vetted.team_outbox WHERE state = 'queued') AS drafts,
            ARRAY(SELECT round(extract(epoch FROM lease_until - now()))::int FROM vetted.team_outbox
                   WHERE state = 'queued' AND lease_until > now()) AS leases`,
  );
  const row = rows[0];
  return {
    last: Number(row?.last ?? 0),
    events: Number(row?.events ?? 0),
    drafts: Number(row?.drafts ?? 0),
    leases: row?.leases ?? [],
  };
}

/**
 * What a desk's journal says now: its replica's last change, and its drafts acknowledged but still queued
 * on the desk (a store away when they were submitted leaves them there until the desk moves them into the
 * team outbox): the team has not settled while one waits there, though the store shows nothing queued.
 */
const deskNow = (journal: string) => {
  const db = new DatabaseSync(journal, { readOnly: true });
  try {
    const { last_seq } = db.prepare('SELECT last_seq FROM replica_state WHERE one = 1').get() as {
      last_seq: number;
    };
    const { waiting } = db
      .prepare(`SELECT count(*) AS waiting FROM drafts WHERE state IN ('queued', 'sending')`)
      .get() as { waiting: number };
    return { lastSeq: last_seq, waiting };
  } finally {
    db.close();
  }
};

/**
 * Waits (bounded) until nothing is queued (in the store or on a desk) or unprocessed and every replica has the
 * store's last change.
 * Resolves with null once settled, or with what holds the team up when the bound is reached: the team's
 * sessions idle in a transaction or waiting for a lock (a desk whose network went silent mid-transaction).
 * `say` hears each change of what it still waits for (a slow settle says why).
 */
export async function settled(
  admin: pg.Pool,
  journals: readonly string[],
  logins: readonly string[],
  timeoutMs: number,
  say: (line: string) => void = () => undefined,
): Promise<string | null> {
  let previous = -1;
  let waitingFor = '';
  const started = Date.now();
  /** Says `what` when it changed (`more` is said with it, not compared: a lease's seconds run down). */
  const note = (what: string, more = '') => {
    if (what !== waitingFor)
      say(`  settling, ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}${more}`);
    waitingFor = what;
  };
  try {
    await waitFor(
      async () => {
        // The store may still be recovering from the last fault: not settled yet.
        const store = await storeNow(admin).catch(() => null);
        if (!store) {
          note('the store does not answer');
          return false;
        }
        const { last, events, drafts, leases } = store;
        const still = last === previous;
        previous = last;
        const desks = journals.map(deskNow);
        const behind = desks.filter((desk) => desk.lastSeq < last).length;
        const onDesks = desks.reduce((sum, desk) => sum + desk.waiting, 0);
        note(
          `${drafts} drafts queued, ${onDesks} still on their desks, ${events} events unprocessed, ` +
            `${behind} replicas behind ${last}`,
          leases.length > 0 ? ` (drafts leased for ${leases.join(', ')} s more)` : '',
        );
        return events + drafts + onDesks === 0 && still && behind === 0;
      },
      'the team to settle (drafts sent, events processed, every replica caught up)',
      timeoutMs,
    );
    return null;
  } catch (error) {
    return `${(error as Error).message} Holding it up: ${await stuckSessions(admin, logins)}`;
  }
}

async function stuckSessions(admin: pg.Pool, logins: readonly string[]): Promise<string> {
  const { rows } = await admin.query<{
    usename: string;
    state: string;
    wait: string | null;
    seconds: string;
    query: string;
  }>(
    `SELECT usename, state, wait_event_type || ':' || wait_event AS wait,
            round(extract(epoch FROM now() - xact_start)) AS seconds,
            left(regexp_replace(query, 's+', ' ', 'g'), 80) AS query
       FROM pg_stat_activity
      WHERE usename = ANY($1::text[]) AND (state = 'idle in transaction' OR wait_event_type = 'Lock')
      ORDER BY xact_start`,
    [logins],
  );
  return rows.length === 0
    ? 'no session of the team idle in a transaction or waiting for a lock'
    : rows
        .map((r) => `${r.usename} ${r.state}${r.wait ? ` (${r.wait})` : ''} for ${r.seconds} s: ${r.query}`)
        .join('; ');
}

export interface FinalSources {
  store: NemesisStore;
  keyFile: string;
  sandbox: RunningSandbox;
  desks: ReadonlyArray<{ login: string; journal: string }>;
}

export async function readFinalState(
  ops: readonly Op[],
  crashes: readonly string[],
  sources: FinalSources,
): Promise<FinalState> {
  const admin = new pg.Client(sources.store.adminConfig());
  await admin.connect();
  try {
    const final = await finalOf(admin, ops, crashes, sources);
    const standby = await standbyImage(sources.store);
    if (standby) final.replicas.push({ desk: 'the standby', image: standby });
    return final;
  } finally {
    await admin.end();
  }
}

/** The standby's rows once it has replayed all the primary wrote (null when it has none). */
async function standbyImage(store: NemesisStore): Promise<ReplicaImage | null> {
  const config = store.standbyConfig();
  if (!config) return null;
  await standbyCaughtUp(store, 30_000);
  const standby = new pg.Client(config);
  await standby.connect();
  try {
    return await storeImage(standby);
  } finally {
    await standby.end();
  }
}

async function finalOf(
  admin: pg.Client,
  ops: readonly Op[],
  crashes: readonly string[],
  sources: FinalSources,
): Promise<FinalState> {
  const query = async <T>(sql: string) => (await admin.query(sql)).rows as T[];
  return {
    crashes: [...crashes],
    serviceByEmail: await serviceByEmail(ops, sources.sandbox),
    outbox: (
      await query<{ draft_id: string; state: string; customer_id: string | null }>(
        'SELECT draft_id, state, customer_id FROM vetted.team_outbox',
      )
    ).map((r) => ({ draftId: r.draft_id, state: r.state, customerId: r.customer_id })),
    notes: await storeNotes(admin, sources.keyFile),
    approvals: await query('SELECT id, maker, state, checker FROM vetted.approvals'),
    claims: (
      await query<{ customer_id: string; holder: string | null }>(
        'SELECT customer_id, holder FROM vetted.claims',
      )
    ).map((r) => ({ customerId: r.customer_id, holder: r.holder })),
    audit: await auditOf(admin, sources.keyFile),
    store: await storeImage(admin),
    replicas: sources.desks.map(({ login, journal }) => ({ desk: login, image: replicaImage(journal) })),
  };
}

async function serviceByEmail(ops: readonly Op[], sandbox: RunningSandbox): Promise<Record<string, number>> {
  const service = createServiceClient(sandbox);
  const counts: Record<string, number> = {};
  try {
    for (const op of ops.filter((o) => o.kind === 'draft')) {
      const page = await service.customers.list({ email: op.key, limit: 10 });
      counts[op.key] = 'unsupported' in page ? 0 : page.customers.length;
    }
  } finally {
    await service.close();
  }
  return counts;
}

async function teamKeys(admin: pg.Client, keyFile: string) {
  const { rows } = await admin.query<{ key_check: string }>('SELECT key_check FROM vetted.team_meta');
  return loadTeamKeys(admin, readKeyFile(keyFile, rows[0]!.key_check));
}

async function storeNotes(admin: pg.Client, keyFile: string): Promise<FinalState['notes']> {
  const { cipher } = await teamKeys(admin, keyFile);
  const { rows } = await admin.query(`SELECT ${NOTE_COLUMNS} FROM vetted.notes ORDER BY seq`);
  return rows.map((row) => {
    const note = noteOf(cipher, NoteRowSchema.parse(row));
    return { seq: note.seq, customerId: note.customerId, author: note.author, text: note.text };
  });
}

async function auditOf(admin: pg.Client, keyFile: string): Promise<FinalState['audit']> {
  let problem: string | undefined;
  await verifyStoreAudit(admin, { keyFile }).catch((error: Error) => {
    problem = error.message;
  });
  const { rows } = await admin.query<AuditLine & { seq: string }>(
    `SELECT seq, actor, action, customer_id AS "customerId", outcome, detail FROM vetted.audit_log ORDER BY seq`,
  );
  const entries = rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  return problem === undefined ? { holds: true, entries } : { holds: false, problem, entries };
}

async function storeImage(admin: pg.Client): Promise<ReplicaImage> {
  const rows = async (sql: string) =>
    (await admin.query({ text: sql, rowMode: 'array' })).rows as unknown[][];
  return {
    customers: (await rows('SELECT id, seq FROM vetted.customers ORDER BY id')).map(([id, seq]) => [
      String(id),
      Number(seq),
    ]),
    notes: (await rows('SELECT seq FROM vetted.notes ORDER BY seq')).map(([seq]) => Number(seq)),
    claims: (await rows('SELECT customer_id, holder, seq FROM vetted.claims ORDER BY customer_id')).map(
      ([id, holder, seq]) => [String(id), holder === null ? null : String(holder), Number(seq)],
    ),
  };
}

export function replicaImage(journal: string): ReplicaImage {
  const db = new DatabaseSync(journal, { readOnly: true });
  try {
    const all = (sql: string) => db.prepare(sql).all() as Array<Record<string, string | number | null>>;
    return {
      customers: all('SELECT id, team_seq FROM customers ORDER BY id').map((r) => [
        String(r.id),
        Number(r.team_seq),
      ]),
      notes: all('SELECT team_seq FROM notes ORDER BY team_seq').map((r) => Number(r.team_seq)),
      claims: all('SELECT customer_id, holder, team_seq FROM claims ORDER BY customer_id').map((r) => [
        String(r.customer_id),
        r.holder === null ? null : String(r.holder),
        Number(r.team_seq),
      ]),
    };
  } finally {
    db.close();
  }
}
