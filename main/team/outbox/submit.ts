// Submitting drafts into the team outbox. Exactly once across desks rests on the order of three commits:
//   1. locally: the draft is checked and queued with its Idempotency-Key (the same key ever after);
//   2. PostgreSQL: the sealed form goes in keyed by that key (ON CONFLICT DO NOTHING), one transaction a chunk;
//   3. locally: the draft is removed.
// A crash between 2 and 3 leaves the draft queued locally with its key: moving it again inserts nothing new.
// A store that cannot be reached leaves the drafts queued locally; `flushLocal` moves them later.
import type pg from 'pg';
import type { SubmitResult } from '#contract/drafts.ts';
import type { Journal } from '#main/data/journal/index.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import { admitDraft } from '#main/features/drafts/outbox/submit.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { inTransaction } from '../store/sql.ts';
import { isKeyChange, keyChangedOn, teamKeyChanged } from '../team-failures.ts';
import { teamKeyCheck } from '../team-key.ts';
import { OUTBOX_CHANNEL, sealForm } from './rows.ts';

const CHUNK = 200;

export interface TeamSubmitOptions {
  /** The desk's local SQLite journal: drafts and their keys. */
  local: Journal;
  pool: pg.Pool;
  /** personalCipher(teamKey). */
  cipher: PersonalCipher;
  log?: Logger;
}

/** What moving locally queued drafts into the team store did. */
export interface FlushResult {
  /** In the team outbox now (inserted now, or found there from an earlier move), and removed locally. */
  moved: string[];
  /** Still queued locally: the team store could not be reached (or refused); a later flush moves them. */
  waiting: string[];
}

/**
 * Checks each draft with the contract rules and moves those that pass into the team outbox. A draft already
 * queued locally (an earlier submit that did not reach the store, or a crash before its local removal) is
 * moved as it is, with its key. `queued` lists every draft accepted, whether it reached the store now or later.
 */
export async function submitToTeam(
  options: TeamSubmitOptions & { ids: readonly string[]; today: Date },
): Promise<SubmitResult & FlushResult> {
  const { local, ids, today } = options;
  const result: SubmitResult = { queued: [], invalid: [], skipped: [] };
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += CHUNK) {
    const chunk = unique.slice(start, start + CHUNK);
    await local.transaction(async (tx) => {
      for (const id of chunk) {
        const summary = await tx.drafts.summary(id);
        if (summary?.state === 'queued') result.queued.push(id);
        else await admitDraft(tx, id, today, result);
      }
    });
  }
  return { ...result, ...(await moveDrafts(options, result.queued)) };
}

/** Moves every draft queued locally into the team outbox: call it when the team store is reachable again. */
export async function flushLocal(options: TeamSubmitOptions): Promise<FlushResult> {
  const queued = (await options.local.drafts.list()).filter((draft) => draft.state === 'queued');
  return moveDrafts(
    options,
    queued.map((draft) => draft.id),
  );
}

async function moveDrafts(options: TeamSubmitOptions, ids: readonly string[]): Promise<FlushResult> {
  const result: FlushResult = { moved: [], waiting: [] };
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    try {
      const inserted = await insertChunk(options, chunk);
      // Only after PostgreSQL committed: the team outbox holds them, under the keys they carry here.
      await options.local.transaction(async (tx) => {
        for (const id of inserted) await tx.drafts.remove(id);
      });
      result.moved.push(...inserted);
    } catch (error) {
      options.log?.warn('team outbox: drafts stay queued on this desk', {
        drafts: chunk.length,
        ...describeError(error),
      });
      result.waiting.push(...ids.slice(start));
      await sayWhyTheyWait(options, ids.slice(start), error);
      break;
    }
  }
  return result;
}

/**
 * Drafts the store refused because this desk's team key is old wait with the reason on them (the drafts view
 * shows it): they go once the desk has joined again with a new join code. A store that could not be reached
 * says nothing new: Settings → Team shows it, and the drafts go when it answers.
 */
async function sayWhyTheyWait(options: TeamSubmitOptions, ids: readonly string[], error: unknown) {
  if (!isKeyChange(error)) return;
  await waitWithReason(options.local, ids, (await keyChangedOn(options.pool)).message);
}

async function waitWithReason(local: Journal, ids: readonly string[], reason: string): Promise<void> {
  await local.transaction(async (tx) => {
    for (const id of ids) await tx.drafts.update(id, { lastError: reason });
  });
}

/**
 * A desk that starts on a team key a rotation retired (the store refuses to open for it): the drafts queued
 * here wait until it has joined again with a new join code, and say so in the drafts view.
 */
export async function holdDraftsOnRetiredKey(pool: pg.Pool, teamKey: Buffer, local: Journal): Promise<void> {
  const { rows } = await pool.query<{ retired_at: Date }>(
    'SELECT retired_at FROM vetted.retired_team_keys WHERE key_check = $1',
    [teamKeyCheck(teamKey)],
  );
  if (!rows[0]) return;
  const queued = (await local.drafts.list()).filter((draft) => draft.state === 'queued');
  await waitWithReason(
    local,
    queued.map((draft) => draft.id),
    teamKeyChanged(rows[0].retired_at).message,
  );
}

/** One PostgreSQL transaction: every draft of the chunk in the team outbox, each keyed by its local key. */
async function insertChunk(options: TeamSubmitOptions, ids: readonly string[]): Promise<string[]> {
  const { local, pool, cipher } = options;
  const rows: { id: string; key: string; keyCreatedAt: string; form: string }[] = [];
  for (const id of ids) {
    const draft = await local.drafts.get(id);
    if (draft?.state !== 'queued') continue;
    // The key committed at submit: ensureKey returns it, never a new one.
    const entry = await local.outbox.ensureKey(id);
    rows.push({
      id,
      key: entry.idempotencyKey,
      keyCreatedAt: entry.keyCreatedAt,
      form: sealForm(cipher, id, draft.form),
    });
  }
  if (rows.length === 0) return [];
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, key_created_at, form)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[])
       ON CONFLICT (idempotency_key) DO NOTHING`,
      [
        rows.map((r) => r.key),
        rows.map((r) => r.id),
        rows.map((r) => r.keyCreatedAt),
        rows.map((r) => r.form),
      ],
    );
    await client.query('SELECT pg_notify($1, $2)', [OUTBOX_CHANNEL, String(rows.length)]);
  });
  return rows.map((r) => r.id);
}
