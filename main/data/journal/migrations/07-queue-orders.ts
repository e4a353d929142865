// Journal migration 7: the queue's other orders and filters, and the counts that let it jump to any place.
import type { Migration } from './runner.ts';

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

export const QUEUE_ORDERS: Migration = {
  version: 7,
  name: 'queue orders: last change, name; their indexes',
  sql: queueOrders,
};
