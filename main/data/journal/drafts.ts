// Drafts of new customers and their outbox entries. Only what the journal must hold is here; the behaviour
// (editing, sending, backoff) is in main/features/drafts/ (the outbox in main/features/drafts/outbox/).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CUSTOMER_FIELDS, type CustomerInput } from '#contract/customer-rules.ts';
import { DRAFT_STATES, type DraftState } from '#contract/drafts.ts';
import type { Params, Statements, Sync } from './db.ts';
import { JournalError } from './errors.ts';
import type { PersonalCipher, PersonalPlace } from './personal.ts';
import type {
  Draft,
  DraftPatch,
  DraftSummary,
  DraftsRepository,
  OutboxEntry,
  OutboxRepository,
} from './repositories/drafts.ts';
import { type Clock, isoTime } from './time.ts';

interface DraftRow {
  id: string;
  created: string;
  updated: string;
  state: DraftState;
  name: string;
  email: string;
  form: string;
  customer_id: string | null;
  field_errors: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
}

interface OutboxRow {
  draft_id: string;
  idempotency_key: string;
  key_created_at: string;
  attempts: number;
  /** 0/1 in SQLite; a boolean in the team outbox (PostgreSQL), whose rows the same rules read. */
  maybe_created: number | boolean;
  duplicate_of: string | null;
}

const FormSchema = z.partialRecord(z.enum(CUSTOMER_FIELDS), z.string());
const FieldErrorsSchema = z.record(z.string(), z.string()).catch({});

const PATCH_COLUMNS: Record<keyof DraftPatch, string> = {
  state: 'state',
  customerId: 'customer_id',
  fieldErrors: 'field_errors',
  attempts: 'attempts',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
};

export function draftsRepository(
  sql: Statements,
  cipher: PersonalCipher,
  clock: Clock,
): Sync<DraftsRepository> {
  return { ...draftForms(sql, cipher, clock), ...draftProgress(sql, clock) };
}

type FormMethods = 'insert' | 'get' | 'summary' | 'list' | 'saveForm' | 'byCustomer';

const formPlace = (id: string): PersonalPlace => ({ table: 'drafts', id, column: 'form' });

/** The drafts as a reviewer writes them: each form sealed, its name and e-mail in plain text. */
function draftForms(
  sql: Statements,
  cipher: PersonalCipher,
  clock: Clock,
): Pick<Sync<DraftsRepository>, FormMethods> {
  const row = (id: string) => sql.get<DraftRow>('SELECT * FROM drafts WHERE id = :id', { id });
  const withForm = (found: DraftRow): Draft => {
    const form = FormSchema.parse(JSON.parse(cipher.open(formPlace(found.id), found.form)));
    return { ...toSummary(found), form };
  };
  const get = (id: string) => {
    const found = row(id);
    return found && withForm(found);
  };
  // The queue shows the name and e-mail in plain text (like a customer's); the whole form is sealed.
  const formColumns = (id: string, form: CustomerInput) => ({
    name: [form.firstName, form.lastName].filter(Boolean).join(' '),
    email: form.email ?? '',
    form: cipher.seal(formPlace(id), JSON.stringify(form)),
  });
  return {
    insert({ form, state = 'draft' }) {
      const id = randomUUID();
      const at = isoTime(clock());
      sql.run(
        `INSERT INTO drafts (id, created, updated, state, name, email, form)
         VALUES (:id, :at, :at, :state, :name, :email, :form)`,
        { id, at, state, ...formColumns(id, form) },
      );
      return get(id)!;
    },
    get,
    summary(id) {
      const found = row(id);
      return found && toSummary(found);
    },
    list() {
      return sql.all<DraftRow>('SELECT * FROM drafts ORDER BY updated, id').map(toSummary);
    },
    saveForm(id, form) {
      const at = isoTime(clock());
      const { changes } = sql.run(
        'UPDATE drafts SET name = :name, email = :email, form = :form, updated = :at WHERE id = :id',
        { id, at, ...formColumns(id, form) },
      );
      return changes > 0 ? at : undefined;
    },
    byCustomer(customerId) {
      const found = sql.get<DraftRow>(
        'SELECT * FROM drafts WHERE customer_id = :customerId ORDER BY updated DESC LIMIT 1',
        { customerId },
      );
      return found && withForm(found);
    },
  };
}

/** The drafts on their way to the service: their state, the queue of those due, and what became of them. */
function draftProgress(sql: Statements, clock: Clock): Omit<Sync<DraftsRepository>, FormMethods> {
  return {
    update(id, patch) {
      const params: Params = { id };
      const sets = Object.entries(patch).map(([key, value]) => {
        params[key] = key === 'fieldErrors' ? JSON.stringify(value) : (value as string | number | null);
        return `${PATCH_COLUMNS[key as keyof DraftPatch]} = :${key}`;
      });
      if (patch.state !== undefined) {
        params.at = isoTime(clock());
        sets.push('updated = CASE WHEN state IS :state THEN updated ELSE :at END');
      }
      if (sets.length > 0) sql.run(`UPDATE drafts SET ${sets.join(', ')} WHERE id = :id`, params);
    },
    remove(id) {
      sql.run('DELETE FROM outbox WHERE draft_id = :id', { id });
      return sql.run('DELETE FROM drafts WHERE id = :id', { id }).changes > 0;
    },
    due(now, limit) {
      return sql
        .all<{ id: string }>(
          `SELECT id FROM drafts WHERE state = 'queued' AND (next_attempt_at IS NULL OR next_attempt_at <= :now)
           ORDER BY next_attempt_at, updated, id LIMIT :limit`,
          { now, limit },
        )
        .map(({ id }) => id);
    },
    queued() {
      return sql
        .all<DraftRow>(`SELECT * FROM drafts WHERE state = 'queued' ORDER BY next_attempt_at, updated, id`)
        .map(toSummary);
    },
    nextAttemptAfter(now) {
      return (
        sql.get<{ at: string | null }>(
          `SELECT min(next_attempt_at) AS at FROM drafts WHERE state = 'queued' AND next_attempt_at > :now`,
          { now },
        )?.at ?? null
      );
    },
    clearBackoff() {
      sql.run(
        `UPDATE drafts SET next_attempt_at = NULL WHERE state = 'queued' AND next_attempt_at IS NOT NULL`,
      );
    },
    requeueSending() {
      sql.run(`UPDATE drafts SET state = 'queued' WHERE state = 'sending'`);
    },
    countByState() {
      const counts = Object.fromEntries(DRAFT_STATES.map((state) => [state, 0])) as Record<
        DraftState,
        number
      >;
      for (const { state, n } of sql.all<{ state: DraftState; n: number }>(
        'SELECT state, count(*) AS n FROM drafts GROUP BY state',
      )) {
        counts[state] = n;
      }
      return counts;
    },
    createdWithoutCustomer() {
      return sql
        .all<{ id: string; customer_id: string }>(
          `SELECT d.id, d.customer_id FROM drafts d WHERE d.state = 'created' AND d.customer_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM customers c WHERE c.id = d.customer_id)`,
        )
        .map((found) => ({ id: found.id, customerId: found.customer_id }));
    },
  };
}

export function outboxRepository(sql: Statements, clock: Clock): Sync<OutboxRepository> {
  const get = (draftId: string) => {
    const row = sql.get<OutboxRow>('SELECT * FROM outbox WHERE draft_id = :draftId', { draftId });
    return row && toOutboxEntry(row);
  };
  const requireDraft = (draftId: string) => {
    if (!sql.get('SELECT 1 FROM drafts WHERE id = :draftId', { draftId })) {
      throw new JournalError(`No draft ${draftId} in the journal`);
    }
  };
  return {
    ensureKey(draftId) {
      const existing = get(draftId);
      if (existing) return existing;
      requireDraft(draftId);
      sql.run(`INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES (:draftId, :key, :at)`, {
        draftId,
        key: randomUUID(),
        at: isoTime(clock()),
      });
      return get(draftId)!;
    },
    rotateKey(draftId) {
      requireDraft(draftId);
      sql.run(
        `INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES (:draftId, :key, :at)
         ON CONFLICT (draft_id) DO UPDATE SET idempotency_key = excluded.idempotency_key,
           key_created_at = excluded.key_created_at, attempts = 0, maybe_created = 0, duplicate_of = NULL`,
        { draftId, key: randomUUID(), at: isoTime(clock()) },
      );
      return get(draftId)!;
    },
    issueKey(draftId) {
      const issued = sql.get<OutboxRow>(
        `INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES (:draftId, :key, :at)
         ON CONFLICT (draft_id) DO UPDATE SET idempotency_key = excluded.idempotency_key,
           key_created_at = excluded.key_created_at, attempts = 0, duplicate_of = NULL
         WHERE maybe_created = 0 RETURNING *`,
        { draftId, key: randomUUID(), at: isoTime(clock()) },
      );
      // No row returned: the key that may have created the customer was kept.
      return issued ? toOutboxEntry(issued) : get(draftId)!;
    },
    get,
    list() {
      return sql.all<OutboxRow>('SELECT * FROM outbox ORDER BY key_created_at, draft_id').map(toOutboxEntry);
    },
    recordAttempt(draftId, { maybeCreated, duplicateOf = null }) {
      sql.run(
        `UPDATE outbox SET attempts = attempts + 1, maybe_created = :maybeCreated, duplicate_of = :duplicateOf
         WHERE draft_id = :draftId`,
        { draftId, maybeCreated: maybeCreated ? 1 : 0, duplicateOf },
      );
    },
    setMaybeCreated(draftId, maybeCreated) {
      sql.run('UPDATE outbox SET maybe_created = :maybeCreated WHERE draft_id = :draftId', {
        draftId,
        maybeCreated: maybeCreated ? 1 : 0,
      });
    },
    assumeQueuedSent() {
      sql.run(
        `UPDATE outbox SET maybe_created = 1 WHERE maybe_created = 0
         AND draft_id IN (SELECT id FROM drafts WHERE state IN ('queued', 'sending'))`,
      );
    },
  };
}

function toSummary(row: DraftRow): DraftSummary {
  return {
    id: row.id,
    created: row.created,
    updated: row.updated,
    state: row.state,
    name: row.name,
    email: row.email,
    customerId: row.customer_id,
    // Most drafts have none: no parse for them.
    fieldErrors: row.field_errors === '{}' ? {} : FieldErrorsSchema.parse(JSON.parse(row.field_errors)),
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
  };
}

/** An outbox row as the outbox's rules see it, the desk's own or the team outbox's. */
export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    draftId: row.draft_id,
    idempotencyKey: row.idempotency_key,
    keyCreatedAt: row.key_created_at,
    attempts: row.attempts,
    maybeCreated: Boolean(row.maybe_created),
    duplicateOf: row.duplicate_of,
  };
}
