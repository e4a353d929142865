// The journal's schema, as an ordered list of migrations. `PRAGMA user_version` holds the number of the
// last one applied. Migrations are append-only: a released migration is never edited, a change is a new one.
import { type Db, transaction } from './db.ts';
import { JournalError } from './errors.ts';
import { REAL_SERVICE_CUSTOMERS } from './migration-real-service.ts';
import { TEAM_REPLICA } from './migration-replica.ts';

export interface Migration {
  /** 1, 2, 3…: its position in `MIGRATIONS`, and the `user_version` once applied. */
  version: number;
  /** What it is for, for people reading the list. */
  name: string;
  sql: string;
  /** Run after `sql`, in the same transaction: for a change that must read the schema it changes. */
  run?: (db: Db) => void;
}

/** 'VETT' in `PRAGMA application_id`: tells a Vetted journal from any other SQLite file. */
export const APPLICATION_ID = 0x56455454;

// Every table is STRICT (a column holds the declared type, or the write fails). Times are ISO-8601 UTC
// text (see time.ts). Personal data columns hold `encryptField` tokens only (see personal.ts).
const customersHistoryAudit = `
CREATE TABLE customers (
  -- An integer key that VACUUM never renumbers: the search index refers to rows by it.
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  -- sectionOf(status, pending_documents) from contract/queue.ts, kept on write so the queue reads it
  -- from an index. A change to sectionOf needs a migration that recomputes it.
  section TEXT NOT NULL CHECK (section IN ('retry', 'document', 'review', 'verified', 'suspended', 'other')),
  status_since TEXT NOT NULL,
  created TEXT NOT NULL,
  last_refreshed TEXT NOT NULL,
  links TEXT NOT NULL DEFAULT '{}',
  -- When the service answered 404. The customer stays in the journal and in the queue.
  gone_at TEXT,
  pending_documents INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  -- Encrypted (personal.ts).
  address TEXT,
  date_of_birth TEXT,
  ssn_last_four TEXT
) STRICT;

-- The queue: a section's window and the whole queue's, longest waiting first.
CREATE INDEX customers_by_section ON customers (section, status_since, id);
CREATE INDEX customers_by_waiting ON customers (status_since, id);
-- Search terms too short for the trigram index match the start of a name or an e-mail.
CREATE INDEX customers_by_name ON customers (name COLLATE NOCASE);
CREATE INDEX customers_by_email ON customers (email COLLATE NOCASE);

-- Substring search over name and e-mail. The trigram tokenizer matches any 3+ character fragment,
-- case-insensitively and ignoring accents. External content: the text lives once, in customers.
CREATE VIRTUAL TABLE customer_search USING fts5 (
  name, email, content = 'customers', content_rowid = 'seq', tokenize = 'trigram remove_diacritics 1'
);
CREATE TRIGGER customers_search_insert AFTER INSERT ON customers BEGIN
  INSERT INTO customer_search (rowid, name, email) VALUES (new.seq, new.name, new.email);
END;
CREATE TRIGGER customers_search_update AFTER UPDATE OF name, email ON customers
WHEN old.name IS NOT new.name OR old.email IS NOT new.email BEGIN
  INSERT INTO customer_search (customer_search, rowid, name, email) VALUES ('delete', old.seq, old.name, old.email);
  INSERT INTO customer_search (rowid, name, email) VALUES (new.seq, new.name, new.email);
END;
CREATE TRIGGER customers_search_delete AFTER DELETE ON customers BEGIN
  INSERT INTO customer_search (customer_search, rowid, name, email) VALUES ('delete', old.seq, old.name, old.email);
END;

-- Live counts per section, kept by triggers: counting 100,000 index entries on every keystroke would
-- make the queue's cost grow with its length.
CREATE TABLE section_counts (
  section TEXT PRIMARY KEY,
  customers INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
INSERT INTO section_counts (section) VALUES ('retry'), ('document'), ('review'), ('verified'), ('suspended'), ('other');
CREATE TRIGGER customers_count_insert AFTER INSERT ON customers BEGIN
  UPDATE section_counts SET customers = customers + 1 WHERE section = new.section;
END;
CREATE TRIGGER customers_count_update AFTER UPDATE OF section ON customers
WHEN old.section IS NOT new.section BEGIN
  UPDATE section_counts SET customers = customers - 1 WHERE section = old.section;
  UPDATE section_counts SET customers = customers + 1 WHERE section = new.section;
END;
CREATE TRIGGER customers_count_delete AFTER DELETE ON customers BEGIN
  UPDATE section_counts SET customers = customers - 1 WHERE section = old.section;
END;

-- Every status observed, with when and how we learnt it.
CREATE TABLE status_history (
  seq INTEGER PRIMARY KEY,
  customer_id TEXT NOT NULL REFERENCES customers (id),
  status TEXT NOT NULL,
  at TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('created', 'poll', 'event')),
  event_id TEXT
) STRICT;
CREATE INDEX status_history_by_customer ON status_history (customer_id, seq);

-- Every reviewer action. Never personal data. Append-only, enforced here rather than trusted to callers.
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  action TEXT NOT NULL,
  customer_id TEXT,
  outcome TEXT NOT NULL,
  detail TEXT
) STRICT;
CREATE INDEX audit_log_by_customer ON audit_log (customer_id, seq);
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE (ABORT, 'The audit log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE (ABORT, 'The audit log is append-only');
END;
`;

const draftsOutboxEventsRetries = `
CREATE TABLE drafts (
  id TEXT PRIMARY KEY,
  created TEXT NOT NULL,
  updated TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('draft', 'queued', 'sending', 'created', 'rejected', 'attention')),
  -- Shown in the queue and searched; the whole form, these included, is in form (encrypted).
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  form TEXT NOT NULL,
  customer_id TEXT,
  field_errors TEXT NOT NULL DEFAULT '{}',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT
) STRICT;
-- The "Drafts & outbox" section: drafts not yet customers, longest waiting first.
CREATE INDEX drafts_in_queue ON drafts (updated, id) WHERE state <> 'created';

-- The Idempotency-Key of a draft's create request, stored before the first request leaves.
CREATE TABLE outbox (
  draft_id TEXT PRIMARY KEY REFERENCES drafts (id),
  idempotency_key TEXT NOT NULL UNIQUE,
  key_created_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Webhook events, deduplicated by the service's event id. customer_id has no foreign key: an event can
-- arrive before its customer is in the journal.
CREATE TABLE events (
  id TEXT PRIMARY KEY,
  topic TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  customer_id TEXT,
  created TEXT NOT NULL,
  received_at TEXT NOT NULL,
  signature_verified INTEGER NOT NULL CHECK (signature_verified IN (0, 1)),
  duplicates_seen INTEGER NOT NULL DEFAULT 0,
  processed_at TEXT
) STRICT;
CREATE INDEX events_by_received ON events (received_at, id);
CREATE INDEX events_unprocessed ON events (received_at) WHERE processed_at IS NULL;
CREATE INDEX events_by_customer ON events (customer_id, received_at);

-- The one retry the service allows per customer, recorded as used.
CREATE TABLE retries (
  customer_id TEXT PRIMARY KEY REFERENCES customers (id),
  used_at TEXT NOT NULL,
  outcome TEXT
) STRICT;
`;

// The event log is filtered by topic. (Catching up reads max(created) once per run: no index for that, as
// every index costs each delivery's insert.)
// Requests the webhook listener refused (bad signature, too large, too slow…): who and when, for a
// security review. Never the body or the headers' values, which an attacker chose.
const eventLogSecurityLog = `
CREATE INDEX events_by_topic ON events (topic, received_at);

CREATE TABLE webhook_rejections (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  remote_address TEXT NOT NULL,
  -- X-Forwarded-For or CF-Connecting-IP as the tunnel passed it: the sender as far as the tunnel says.
  forwarded_for TEXT,
  status INTEGER NOT NULL,
  reason TEXT NOT NULL
) STRICT;
`;

// The outbox engine (main/drafts/outbox/). maybe_created: a request with this key may have been processed without
// Vetted learning the answer, so the key must be replayed (or, once the service may have forgotten it, the
// customer looked for) before the draft can change. duplicate_of: the existing customer a Duplicate e-mail named.
const outboxDelivery = `
ALTER TABLE outbox ADD COLUMN maybe_created INTEGER NOT NULL DEFAULT 0 CHECK (maybe_created IN (0, 1));
ALTER TABLE outbox ADD COLUMN duplicate_of TEXT;

-- The outbox's next drafts to send: queued, due first.
CREATE INDEX drafts_due ON drafts (next_attempt_at, updated, id) WHERE state = 'queued';
-- The retry form is pre-filled from the draft that created the customer.
CREATE INDEX drafts_by_customer ON drafts (customer_id) WHERE customer_id IS NOT NULL;
`;

// The case panel (main/journal/notes.ts, document-images.ts): reviewers' notes and the images of documents
// uploaded from this desk, both personal data and so encrypted; who did each audited action (the OS user in
// solo mode). Audit rows written before this migration have no actor: '' says "not recorded".
const notesImagesActors = `
ALTER TABLE audit_log ADD COLUMN actor TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_by_action ON audit_log (action, seq);
CREATE INDEX audit_log_by_actor ON audit_log (actor, seq);

CREATE TABLE notes (
  seq INTEGER PRIMARY KEY,
  customer_id TEXT NOT NULL,
  at TEXT NOT NULL,
  author TEXT NOT NULL,
  -- Encrypted (personal.ts): a note may quote what the reviewer saw.
  body TEXT NOT NULL
) STRICT;
CREATE INDEX notes_by_customer ON notes (customer_id, seq);

CREATE TABLE document_images (
  document_id TEXT PRIMARY KEY,
  customer_id TEXT NOT NULL,
  at TEXT NOT NULL,
  document_type TEXT NOT NULL,
  content_type TEXT NOT NULL,
  -- Encrypted (personal.ts): the photo of an identity document, base64 inside the token.
  image TEXT NOT NULL
) STRICT;
CREATE INDEX document_images_by_customer ON document_images (customer_id, at);
`;

/** The statements that move one customer's place counts (see queueOrders) by `delta`. */
function placeCounts(row: 'new' | 'old', delta: 1 | -1): string {
  const upsert = (table: string, column: string, section: string, length: number) =>
    `INSERT INTO ${table} (section, ${column}, n) VALUES (${section}, substr(${row}.status_since, 1, ${length}), ${delta})
  ON CONFLICT DO UPDATE SET n = n + ${delta};`;
  return [
    upsert('queue_days', 'day', `${row}.section`, 10),
    upsert('queue_days', 'day', "'*'", 10),
    upsert('queue_hours', 'hour', `${row}.section`, 13),
    upsert('queue_hours', 'hour', "'*'", 13),
  ].join('\n');
}

// The queue's other orders (last change, name) and its filters. changed_at is the last time anything the
// queue shows changed; kept by triggers so that every writer of customers (service, webhooks, documents)
// moves it without knowing. Times come from the row itself (the refresh that saw the change), never from
// SQLite's own clock, so a test's clock decides them. Each order has its index, per section and overall.
const queueOrders = `
ALTER TABLE customers ADD COLUMN changed_at TEXT NOT NULL DEFAULT '';
UPDATE customers SET changed_at = max(status_since, coalesce(gone_at, ''));
CREATE TRIGGER customers_changed_insert AFTER INSERT ON customers BEGIN
  UPDATE customers SET changed_at = new.status_since WHERE seq = new.seq;
END;
CREATE TRIGGER customers_changed_update AFTER UPDATE OF status, section, name, email, note, pending_documents, gone_at
ON customers
WHEN old.status IS NOT new.status OR old.section IS NOT new.section OR old.name IS NOT new.name
  OR old.email IS NOT new.email OR old.note IS NOT new.note OR old.pending_documents IS NOT new.pending_documents
  OR old.gone_at IS NOT new.gone_at BEGIN
  UPDATE customers SET changed_at = max(new.last_refreshed, new.status_since, coalesce(new.gone_at, ''), old.changed_at)
  WHERE seq = new.seq;
END;
-- Name and e-mail ride in every order's index: a broad search walks an index testing them on each entry,
-- and reading each customer's row instead would cost a page read per entry.
DROP INDEX customers_by_section;
DROP INDEX customers_by_waiting;
CREATE INDEX customers_by_section ON customers (section, status_since, id, name, email);
CREATE INDEX customers_by_waiting ON customers (status_since, id, name, email);
CREATE INDEX customers_by_section_change ON customers (section, changed_at, id, name, email);
CREATE INDEX customers_by_change ON customers (changed_at, id, name, email);
CREATE INDEX customers_by_section_name ON customers (section, name COLLATE NOCASE, id, email);
DROP INDEX customers_by_name;
CREATE INDEX customers_by_name ON customers (name COLLATE NOCASE, id, email);

-- A jump to any place in a long list (a scrollbar dragged to 60 %) must not count its way there row by
-- row: customers per section (and '*' for all) in each day and each hour of waiting, kept by triggers,
-- find the hour that holds the n-th row; the rows are then counted from that hour's start only.
CREATE TABLE queue_days (section TEXT NOT NULL, day TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (section, day))
  STRICT, WITHOUT ROWID;
CREATE TABLE queue_hours (section TEXT NOT NULL, hour TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (section, hour))
  STRICT, WITHOUT ROWID;
INSERT INTO queue_days SELECT section, substr(status_since, 1, 10), count(*) FROM customers GROUP BY 1, 2;
INSERT INTO queue_days SELECT '*', substr(status_since, 1, 10), count(*) FROM customers GROUP BY 2;
INSERT INTO queue_hours SELECT section, substr(status_since, 1, 13), count(*) FROM customers GROUP BY 1, 2;
INSERT INTO queue_hours SELECT '*', substr(status_since, 1, 13), count(*) FROM customers GROUP BY 2;
CREATE TRIGGER queue_place_insert AFTER INSERT ON customers BEGIN
${placeCounts('new', 1)}
END;
CREATE TRIGGER queue_place_delete AFTER DELETE ON customers BEGIN
${placeCounts('old', -1)}
END;
CREATE TRIGGER queue_place_update AFTER UPDATE OF section, status_since ON customers
WHEN old.section IS NOT new.section OR old.status_since IS NOT new.status_since BEGIN
${placeCounts('old', -1)}
${placeCounts('new', 1)}
END;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'customers, status history, audit log', sql: customersHistoryAudit },
  { version: 2, name: 'drafts, outbox, events, retries', sql: draftsOutboxEventsRetries },
  { version: 3, name: 'event log indexes, webhook security log', sql: eventLogSecurityLog },
  { version: 4, name: 'outbox delivery: uncertain sends, duplicates, due drafts', sql: outboxDelivery },
  { version: 5, name: 'notes, document images, audit actors', sql: notesImagesActors },
  REAL_SERVICE_CUSTOMERS,
  { version: 7, name: 'queue orders: last change, name; their indexes', sql: queueOrders },
  TEAM_REPLICA,
];

export const LATEST_VERSION = MIGRATIONS.length;

export function schemaVersion(db: Db): number {
  return pragmaNumber(db, 'user_version');
}

/**
 * Refuses, before anything is written, a file this version must not migrate: a journal from a newer
 * Vetted, or an SQLite database that is not a journal at all.
 */
export function checkCanMigrate(db: Db, file: string, migrations: readonly Migration[] = MIGRATIONS): void {
  const version = readHeader(db, file, 'user_version');
  const known = migrations.length;
  if (version > known) {
    throw new JournalError(
      `This journal was written by a newer Vetted (schema ${version}; this version knows up to ${known}). ` +
        `Update Vetted to open it. The file ${file} was left untouched.`,
    );
  }
  const applicationId = readHeader(db, file, 'application_id');
  const empty = version === 0 && !db.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
  if (applicationId !== APPLICATION_ID && !(applicationId === 0 && empty)) {
    throw new JournalError(`The file ${file} is not a Vetted journal; it was left untouched.`);
  }
}

/** Applies the migrations the database lacks, each in its own transaction with its version number. */
export function migrate(db: Db, migrations: readonly Migration[] = MIGRATIONS): void {
  for (const migration of migrations.slice(schemaVersion(db))) {
    transaction(db, () => {
      db.exec(migration.sql);
      migration.run?.(db);
      // Both pragmas are part of the transaction: a failed migration leaves the version as it was.
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}; PRAGMA user_version = ${migration.version};`);
    });
  }
}

// The first read of a file that is not a database fails here: say so, naming the file.
function readHeader(db: Db, file: string, pragma: 'user_version' | 'application_id'): number {
  try {
    return pragmaNumber(db, pragma);
  } catch (cause) {
    throw new JournalError(`The file ${file} is not a Vetted journal (not an SQLite database).`, { cause });
  }
}

function pragmaNumber(db: Db, pragma: 'user_version' | 'application_id'): number {
  const row = db.prepare(`PRAGMA ${pragma}`).get() as Record<string, number>;
  return row[pragma] ?? 0;
}
