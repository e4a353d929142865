// Team mode's local replica: the desk's copy of the team store's customers, status history, notes, retries
// and claims (claims.ts), in its own journal, so that the queue (searched and sorted by name, which PostgreSQL only holds
// sealed) reads locally. Rows arrive decrypted with the team key (main/team/journal/replication.ts) and
// are sealed here again with this desk's own data key, exactly as the solo journal seals them. Each
// carries its change number (`team_seq`, migration 8): a change is applied once, and never over a newer one.
import { sectionOf } from '#contract/queue.ts';
import { type ClaimChange, claimRows, type LocalClaim, type ReplicaClaim } from './claims.ts';
import { type Db, type Statements, type Sync, transaction } from './db.ts';
import { JournalError } from './errors.ts';
import { notePlace } from './notes.ts';
import { type PersonalCipher, sealedPersonal, sealedReported } from './personal.ts';
import type { JournalCustomer, StatusChange } from './repositories/customers.ts';
import type { PersonalData } from './repositories/personal-data.ts';

/**
 * A customer's row as the team store holds it, decrypted: what the journal reads back of a customer (its
 * section follows from status and documents, as locally), with its personal data. Times are ISO-8601 UTC.
 */
export type ReplicaCustomer = Omit<JournalCustomer, 'section'> & {
  /** The change that last wrote the row. */
  seq: number;
  personal: PersonalData | null;
  reported: Record<string, unknown> | null;
};

export type ReplicaStatusChange = StatusChange & { seq: number; customerId: string };

export interface ReplicaNote {
  seq: number;
  customerId: string;
  at: string;
  author: string;
  text: string;
}

export interface ReplicaRetry {
  seq: number;
  customerId: string;
  usedAt: string;
  outcome: string | null;
  /** The service refused the retry's fields without acting on them: the one retry is there again. */
  released: boolean;
}

export interface ReplicaChanges {
  customers?: readonly ReplicaCustomer[];
  statusHistory?: readonly ReplicaStatusChange[];
  notes?: readonly ReplicaNote[];
  retries?: readonly ReplicaRetry[];
  claims?: readonly ReplicaClaim[];
  /**
   * Every change up to this number has been read: a page's end, which may lie past the last row given (rows
   * rewritten by newer changes left the page) or before a customer given (brought along, newer, for the
   * history or retry that needs it). Defaults to the highest `seq` given.
   */
  through?: number;
}

export interface AppliedChanges {
  /** The replica's last change number once applied. */
  lastSeq: number;
  /** Customers whose row, history, notes, retry or claim changed here (not those whose change was stale). */
  customerIds: string[];
  /** Claims that changed here, each with who held the case before (absent: none did). */
  claims?: ClaimChange[];
}

export interface Replica {
  /** Applies the changes in one local transaction; applying a change again, or an older one, changes nothing. */
  applyChanges(changes: ReplicaChanges): Promise<AppliedChanges>;
  /** The last change number copied: the catch-up reads every change after it. */
  lastSeq(): Promise<number>;
  /** A case's claim as last copied (a claim no one holds any more has `holder` null); undefined: never claimed. */
  claim(customerId: string): Promise<LocalClaim | undefined>;
}

// Only a newer change replaces a customer: the team store rewrites a row's seq on every change, so a stale
// copy of it (a page read before a later one was applied) must not win.
const UPSERT_CUSTOMER = `
INSERT INTO customers (id, url, name, email, type, status, section, status_since, created, last_refreshed, links,
  gone_at, pending_documents, note, address, date_of_birth, ssn_last_four, reported, team_seq)
VALUES (:id, :url, :name, :email, :type, :status, :section, :statusSince, :created, :lastRefreshed, :links,
  :goneAt, :pendingDocuments, :note, :address, :dateOfBirth, :ssnLastFour, :reported, :seq)
ON CONFLICT (id) DO UPDATE SET url = excluded.url, name = excluded.name, email = excluded.email,
  type = excluded.type, status = excluded.status, section = excluded.section, status_since = excluded.status_since,
  created = excluded.created, last_refreshed = excluded.last_refreshed, links = excluded.links,
  gone_at = excluded.gone_at, pending_documents = excluded.pending_documents, note = excluded.note,
  address = excluded.address, date_of_birth = excluded.date_of_birth, ssn_last_four = excluded.ssn_last_four,
  reported = excluded.reported, team_seq = excluded.team_seq
WHERE customers.team_seq IS NULL OR customers.team_seq < excluded.team_seq`;

// The triggers of migration 7 set changed_at from the row's own times; the team store already decided it.
// Setting only changed_at fires none of them.
const SET_CHANGED_AT = 'UPDATE customers SET changed_at = :changedAt WHERE id = :id';

const INSERT_HISTORY = `
INSERT INTO status_history (customer_id, status, at, source, event_id, team_seq)
VALUES (:customerId, :status, :at, :source, :eventId, :seq)
ON CONFLICT (team_seq) WHERE team_seq IS NOT NULL DO NOTHING`;

// The body is sealed for the local row, whose number is known only once inserted (as notes.ts does).
const INSERT_NOTE = `
INSERT INTO notes (customer_id, at, author, body, team_seq) VALUES (:customerId, :at, :author, '', :seq)
ON CONFLICT (team_seq) WHERE team_seq IS NOT NULL DO NOTHING
RETURNING seq`;

const UPSERT_RETRY = `
INSERT INTO retries (customer_id, used_at, outcome, released, team_seq)
VALUES (:customerId, :usedAt, :outcome, :released, :seq)
ON CONFLICT (customer_id) DO UPDATE SET used_at = excluded.used_at, outcome = excluded.outcome,
  released = excluded.released, team_seq = excluded.team_seq
WHERE retries.team_seq IS NULL OR retries.team_seq < excluded.team_seq`;

export function replicaRepository(db: Db, sql: Statements, cipher: PersonalCipher): Sync<Replica> {
  const lastSeq = () =>
    sql.get<{ last_seq: number }>('SELECT last_seq FROM replica_state WHERE one = 1')?.last_seq ?? 0;
  const knownCustomer = (id: string) =>
    sql.get('SELECT 1 FROM customers WHERE id = :id', { id }) !== undefined;

  const applyCustomer = (customer: ReplicaCustomer): boolean => {
    const { personal, reported, links, changedAt, ...columns } = customer;
    const { changes } = sql.run(UPSERT_CUSTOMER, {
      ...columns,
      section: sectionOf(customer.status, customer.pendingDocuments),
      links: JSON.stringify(links),
      ...(personal
        ? sealedPersonal(cipher, customer.id, personal)
        : { address: null, dateOfBirth: null, ssnLastFour: null }),
      reported: sealedReported(cipher, customer.id, reported ?? {}),
    });
    if (changes === 0) return false;
    sql.run(SET_CHANGED_AT, { id: customer.id, changedAt });
    return true;
  };

  // History and retries refer to their customer: the catch-up sends a customer with any row that needs it.
  const requireCustomer = (customerId: string, what: string) => {
    if (!knownCustomer(customerId)) {
      throw new JournalError(`The team store sent ${what} of customer ${customerId} without the customer.`);
    }
  };

  const applyHistory = (change: ReplicaStatusChange): boolean => {
    requireCustomer(change.customerId, `status change ${change.seq}`);
    return sql.run(INSERT_HISTORY, { ...change }).changes > 0;
  };

  const applyNote = ({ text, ...note }: ReplicaNote): boolean => {
    const inserted = sql.get<{ seq: number }>(INSERT_NOTE, { ...note });
    if (!inserted) return false;
    sql.run('UPDATE notes SET body = :body WHERE seq = :seq', {
      seq: inserted.seq,
      body: cipher.seal(notePlace(inserted.seq), text),
    });
    return true;
  };

  const claims = claimRows(sql, cipher);

  const applyRetry = (retry: ReplicaRetry): boolean => {
    requireCustomer(retry.customerId, `retry ${retry.seq}`);
    return sql.run(UPSERT_RETRY, { ...retry, released: retry.released ? 1 : 0 }).changes > 0;
  };

  return {
    applyChanges(changes) {
      const customers = [...(changes.customers ?? [])].sort((a, b) => a.seq - b.seq);
      const history = [...(changes.statusHistory ?? [])].sort((a, b) => a.seq - b.seq);
      const notes = [...(changes.notes ?? [])].sort((a, b) => a.seq - b.seq);
      const retries = [...(changes.retries ?? [])].sort((a, b) => a.seq - b.seq);
      const claimed = [...(changes.claims ?? [])].sort((a, b) => a.seq - b.seq);
      // Given, it is the page's end: a customer brought along from a later change must not move it past
      // changes not yet read.
      const through =
        changes.through ??
        Math.max(0, ...[customers, history, notes, retries, claimed].flat().map((c) => c.seq));
      const changed = new Set<string>();
      const claimChanges: ClaimChange[] = [];
      // The copy can be read again from the team store: a power cut may lose it with its last_seq, never
      // one without the other.
      const lastSeqNow = transaction(
        db,
        () => {
          for (const customer of customers) if (applyCustomer(customer)) changed.add(customer.id);
          for (const change of history) if (applyHistory(change)) changed.add(change.customerId);
          for (const retry of retries) if (applyRetry(retry)) changed.add(retry.customerId);
          for (const note of notes) if (applyNote(note)) changed.add(note.customerId);
          for (const claim of claimed) {
            requireCustomer(claim.customerId, `claim ${claim.seq}`);
            const applied = claims.apply(claim);
            if (applied) claimChanges.push(applied);
            if (applied) changed.add(claim.customerId);
          }
          sql.run('UPDATE replica_state SET last_seq = max(last_seq, :through) WHERE one = 1', { through });
          return lastSeq();
        },
        { sync: 'later' },
      );
      return {
        lastSeq: lastSeqNow,
        customerIds: [...changed],
        ...(claimChanges.length > 0 ? { claims: claimChanges } : {}),
      };
    },
    lastSeq,
    claim: (customerId) => claims.get(customerId),
  };
}
