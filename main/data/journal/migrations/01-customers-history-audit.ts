// Journal migration 1: customers, their status history and the audit log, with the queue's indexes, its
// search index and its counts per section.
import type { Migration } from './runner.ts';

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

export const CUSTOMERS_HISTORY_AUDIT: Migration = {
  version: 1,
  name: 'customers, status history, audit log',
  sql: customersHistoryAudit,
};
