// Writes the team store's replicated rows (customers, status history, notes, retries, claims) with plain SQL, sealed
// with the team key in the store's formats and numbered by `drawChange`, as another desk or the hub would: the
// replication tests read them back without depending on the team journal's own repositories.
import pg from 'pg';
import { AuditActionSchema } from '#contract/audit-actions.ts';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { claimNotePlace } from '#main/data/journal/claims.ts';
import { type PersonalCipher, personalCipher } from '#main/data/journal/personal.ts';
import type { PersonalData } from '#main/data/journal/repositories/personal-data.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { drawChange } from '#main/team/journal/team-db.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { createTeamKey } from '#main/team/team-key.ts';
import { migratedDatabase } from '../postgres/team-db.ts';

export interface TeamStore {
  url: string;
  pool: pg.Pool;
  teamKey: Buffer;
  cipher: PersonalCipher;
  end(): Promise<void>;
}

/** A fresh, migrated team store and a pool on it. */
export async function teamStore(): Promise<TeamStore> {
  const url = await migratedDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const teamKey = createTeamKey();
  return { url, pool, teamKey, cipher: personalCipher(teamKey), end: () => pool.end() };
}

export interface TeamCustomerInput {
  id: string;
  name?: string;
  email?: string;
  status?: string;
  statusSince?: string;
  pendingDocuments?: number;
  note?: string | null;
  personal?: PersonalData;
  reported?: Record<string, unknown>;
}

/** Inserts or rewrites a customer under a new change number; returns the number. */
export async function writeCustomer(store: TeamStore, input: TeamCustomerInput): Promise<number> {
  const { id, status = 'document', statusSince = '2026-03-01T09:00:00.000Z' } = input;
  const seal = (column: string, value: unknown) =>
    store.cipher.seal({ table: 'customers', id, column }, JSON.stringify(value));
  const url = `https://api.service.test/customers/${id}`;
  const profile = seal('profile', {
    url,
    name: input.name ?? 'Jane Doe',
    email: input.email ?? `${id}@example.com`,
    type: 'personal',
    links: { self: { href: url } },
    note: input.note ?? null,
  });
  return inTransaction(store.pool, async (client) => {
    const seq = await drawChange(client);
    await client.query(
      `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at,
         pending_documents, profile, personal, reported)
       VALUES ($1, $2, $3, $3, $4, '2026-03-01T08:00:00Z', $4, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, status = excluded.status, section = excluded.section,
         status_since = excluded.status_since, last_refreshed = excluded.last_refreshed,
         changed_at = excluded.changed_at, pending_documents = excluded.pending_documents,
         profile = excluded.profile, personal = excluded.personal, reported = excluded.reported`,
      [
        id,
        seq,
        status,
        statusSince,
        input.pendingDocuments ?? 0,
        profile,
        input.personal ? seal('personal', input.personal) : null,
        input.reported ? seal('reported', input.reported) : null,
      ],
    );
    return seq;
  });
}

export async function writeStatusChange(
  store: TeamStore,
  change: { customerId: string; status: string; at?: string },
): Promise<number> {
  return inTransaction(store.pool, async (client) => {
    const seq = await drawChange(client);
    await client.query(
      `INSERT INTO vetted.status_history (seq, customer_id, status, at, source) VALUES ($1, $2, $3, $4, 'event')`,
      [seq, change.customerId, change.status, change.at ?? '2026-03-01T09:00:00Z'],
    );
    return seq;
  });
}

export async function writeNote(
  store: TeamStore,
  note: { customerId: string; text: string },
): Promise<number> {
  return inTransaction(store.pool, async (client) => {
    const seq = await drawChange(client);
    const body = store.cipher.seal({ table: 'notes', id: String(seq), column: 'body' }, note.text);
    await client.query(
      `INSERT INTO vetted.notes (seq, customer_id, at, body) VALUES ($1, $2, '2026-03-01T09:10:00Z', $3)`,
      [seq, note.customerId, body],
    );
    return seq;
  });
}

export async function writeRetry(
  store: TeamStore,
  retry: { customerId: string; outcome: string | null; released?: boolean },
): Promise<number> {
  return inTransaction(store.pool, async (client) => {
    const seq = await drawChange(client);
    await client.query(
      `INSERT INTO vetted.retries (customer_id, seq, used_at, outcome, released)
       VALUES ($1, $2, '2026-03-01T09:20:00Z', $3, $4)
       ON CONFLICT (customer_id) DO UPDATE SET seq = excluded.seq, outcome = excluded.outcome,
         released = excluded.released`,
      [retry.customerId, seq, retry.outcome, retry.released ?? false],
    );
    return seq;
  });
}

/**
 * A case's claim as the store's claim functions leave it (holder null: released), its note sealed, with the
 * audit entry the store requires of every claim change in its transaction.
 */
export async function writeClaim(
  store: TeamStore,
  claim: { customerId: string; holder: string | null; how?: string; by?: string; note?: string },
): Promise<number> {
  const { customerId, holder, how = holder ? 'take' : 'release' } = claim;
  const note = claim.note === undefined ? null : store.cipher.seal(claimNotePlace(customerId), claim.note);
  return inTransaction(store.pool, async (client) => {
    const seq = await drawChange(client);
    const held = holder ? 'now()' : 'NULL';
    await client.query(
      `INSERT INTO vetted.claims AS k (customer_id, seq, holder, since, touched_at, expires_at, how, changed_by,
         changed_at, note)
       VALUES ($1, $2, $3, ${held}, ${held}, ${held}, $4, $5, '2026-03-01T09:30:00Z', $6)
       ON CONFLICT (customer_id) DO UPDATE SET seq = excluded.seq, holder = excluded.holder, since = excluded.since,
         touched_at = excluded.touched_at, expires_at = excluded.expires_at, how = excluded.how,
         changed_by = excluded.changed_by, changed_at = excluded.changed_at, note = excluded.note`,
      [customerId, seq, holder, how, claim.by ?? holder ?? 'someone', note],
    );
    await appendAuditEntry(client, auditSealer(store.teamKey), {
      at: new Date().toISOString(),
      action: AuditActionSchema.parse(`claim.${['take', 'action', 'next'].includes(how) ? 'take' : how}`),
      customerId,
      outcome: 'ok',
      detail: null,
    });
    return seq;
  });
}
