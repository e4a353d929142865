// Migration 5: today's real service (real-service.md). Its statuses `kba`, `unverified` and `deactivated` get
// sections of their own, and the fields its GET adds (address, phone, any other) are kept, encrypted.
//
// The section CHECK constraint cannot be altered in place, so the customers table is rebuilt: copied aside,
// dropped, created anew and filled again, keeping every `seq` (the search index refers to rows by it, so it
// stays valid as it is). Foreign keys from status_history and retries stay on: deferred, the rows dropped
// with the old table count as violations until the same ids are back in the new one, before the commit.

/** The customers table's indexes and the triggers that keep its search index and section counts. */
export const CUSTOMERS_INDEXES_TRIGGERS = `
-- The queue: a section's window and the whole queue's, longest waiting first.
CREATE INDEX customers_by_section ON customers (section, status_since, id);
CREATE INDEX customers_by_waiting ON customers (status_since, id);
-- Search terms too short for the trigram index match the start of a name or an e-mail.
CREATE INDEX customers_by_name ON customers (name COLLATE NOCASE);
CREATE INDEX customers_by_email ON customers (email COLLATE NOCASE);

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
`;

const COLUMNS = `seq, id, url, name, email, type, status, section, status_since, created, last_refreshed, links,
  gone_at, pending_documents, note, address, date_of_birth, ssn_last_four`;

export const realServiceCustomers = `
PRAGMA defer_foreign_keys = ON;
CREATE TEMP TABLE customers_before_5 AS SELECT * FROM main.customers;
DROP TABLE main.customers;
CREATE TABLE customers (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  -- sectionOf(status, pending_documents) from contract/queue.ts, kept on write so the queue reads it
  -- from an index. A change to sectionOf needs a migration that recomputes it.
  section TEXT NOT NULL CHECK (section IN ('retry', 'document', 'review', 'kba', 'unverified', 'verified',
    'suspended', 'deactivated', 'other')),
  status_since TEXT NOT NULL,
  created TEXT NOT NULL,
  last_refreshed TEXT NOT NULL,
  -- The service's links (not personal): which actions it offers this customer.
  links TEXT NOT NULL DEFAULT '{}',
  -- When the service answered 404. The customer stays in the journal and in the queue.
  gone_at TEXT,
  pending_documents INTEGER NOT NULL DEFAULT 0,
  note TEXT,
  -- Encrypted (personal.ts).
  address TEXT,
  date_of_birth TEXT,
  ssn_last_four TEXT,
  -- Encrypted (personal.ts): the fields the service's GET gave beyond the interface document's.
  reported TEXT
) STRICT;
INSERT INTO customers (${COLUMNS}) SELECT ${COLUMNS} FROM temp.customers_before_5;
DROP TABLE temp.customers_before_5;
${CUSTOMERS_INDEXES_TRIGGERS}
INSERT INTO section_counts (section) VALUES ('kba'), ('unverified'), ('deactivated');
-- Customers already in these statuses were in "Other": the count triggers move them.
UPDATE customers SET section = status WHERE status IN ('kba', 'unverified', 'deactivated');
`;
