// Drafts of new customers and their outbox entries. Only what the journal must hold is here; the drafts and
// outbox issues add the behaviour (editing, sending, backoff).
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CUSTOMER_FIELDS, type CustomerInput } from '../../contract/customer-rules.ts';
import type { Statements } from './db.ts';
import { JournalError } from './errors.ts';
import type { PersonalCipher, PersonalPlace } from './personal.ts';
import { type Clock, isoTime } from './time.ts';

export const DRAFT_STATES = ['draft', 'queued', 'sending', 'created', 'rejected', 'attention'] as const;
export type DraftState = (typeof DRAFT_STATES)[number];

/** A draft as listed: no personal data beyond the name and e-mail the queue shows. */
export interface DraftSummary {
  id: string;
  created: string;
  updated: string;
  state: DraftState;
  name: string;
  email: string;
  customerId: string | null;
  /** Field errors from the service, by JSON pointer ("/email"). */
  fieldErrors: Record<string, string>;
  attempts: number;
  nextAttemptAt: string | null;
  lastError: string | null;
}

export interface Draft extends DraftSummary {
  /** The form as the reviewer filled it in; stored encrypted as a whole. */
  form: CustomerInput;
}

export interface DraftsRepository {
  insert(draft: { form: CustomerInput; state?: DraftState }): Draft;
  /** Throws `JournalError` if its form does not decrypt. */
  get(id: string): Draft | undefined;
  /** Oldest first. */
  list(): DraftSummary[];
}

export interface OutboxEntry {
  draftId: string;
  idempotencyKey: string;
  keyCreatedAt: string;
  attempts: number;
}

export interface OutboxRepository {
  /** The draft's Idempotency-Key: created and stored on the first call, the same one ever after. */
  ensureKey(draftId: string): OutboxEntry;
  get(draftId: string): OutboxEntry | undefined;
  list(): OutboxEntry[];
}

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
}

const FormSchema = z.partialRecord(z.enum(CUSTOMER_FIELDS), z.string());
const FieldErrorsSchema = z.record(z.string(), z.string()).catch({});

export function draftsRepository(sql: Statements, cipher: PersonalCipher, clock: Clock): DraftsRepository {
  const formPlace = (id: string): PersonalPlace => ({ table: 'drafts', id, column: 'form' });
  const get = (id: string) => {
    const row = sql.get<DraftRow>('SELECT * FROM drafts WHERE id = :id', { id });
    if (!row) return undefined;
    const form = FormSchema.parse(JSON.parse(cipher.open(formPlace(id), row.form)));
    return { ...toSummary(row), form };
  };
  return {
    insert({ form, state = 'draft' }) {
      const id = randomUUID();
      const at = isoTime(clock());
      sql.run(
        `INSERT INTO drafts (id, created, updated, state, name, email, form)
         VALUES (:id, :at, :at, :state, :name, :email, :form)`,
        {
          id,
          at,
          state,
          name: [form.firstName, form.lastName].filter(Boolean).join(' '),
          email: form.email ?? '',
          form: cipher.seal(formPlace(id), JSON.stringify(form)),
        },
      );
      return get(id)!;
    },
    get,
    list() {
      return sql.all<DraftRow>('SELECT * FROM drafts ORDER BY updated, id').map(toSummary);
    },
  };
}

export function outboxRepository(sql: Statements, clock: Clock): OutboxRepository {
  const get = (draftId: string) => {
    const row = sql.get<OutboxRow>('SELECT * FROM outbox WHERE draft_id = :draftId', { draftId });
    return row && toOutboxEntry(row);
  };
  return {
    ensureKey(draftId) {
      const existing = get(draftId);
      if (existing) return existing;
      if (!sql.get('SELECT 1 FROM drafts WHERE id = :draftId', { draftId })) {
        throw new JournalError(`No draft ${draftId} in the journal`);
      }
      sql.run(`INSERT INTO outbox (draft_id, idempotency_key, key_created_at) VALUES (:draftId, :key, :at)`, {
        draftId,
        key: randomUUID(),
        at: isoTime(clock()),
      });
      return get(draftId)!;
    },
    get,
    list() {
      return sql.all<OutboxRow>('SELECT * FROM outbox ORDER BY key_created_at, draft_id').map(toOutboxEntry);
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
    fieldErrors: FieldErrorsSchema.parse(JSON.parse(row.field_errors)),
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
  };
}

function toOutboxEntry(row: OutboxRow): OutboxEntry {
  return {
    draftId: row.draft_id,
    idempotencyKey: row.idempotency_key,
    keyCreatedAt: row.key_created_at,
    attempts: row.attempts,
  };
}
