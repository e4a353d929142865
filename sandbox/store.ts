import { chmodSync } from 'node:fs';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';

/**
 * The sandbox's state in SQLite (node:sqlite): a file, so a restart resumes where it stopped, or
 * `:memory:`. Times are sandbox-clock milliseconds; ids are UUIDs; `seq` keeps insertion order.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE IF NOT EXISTS tokens (
  hash TEXT PRIMARY KEY,
  issued_ms INTEGER NOT NULL,
  expires_ms INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS customers (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  email_key TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  retried INTEGER NOT NULL DEFAULT 0,
  address1 TEXT NOT NULL,
  address2 TEXT,
  city TEXT NOT NULL,
  state TEXT NOT NULL,
  postal_code TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,
  tin_last4 TEXT NOT NULL,
  ip_address TEXT,
  created_ms INTEGER NOT NULL
);

-- The real profile's extra customer fields (customer-extras.ts).
CREATE TABLE IF NOT EXISTS customer_extras (
  customer_id TEXT PRIMARY KEY REFERENCES customers(id),
  phone TEXT,
  correlation_id TEXT
);

CREATE TABLE IF NOT EXISTS documents (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  customer_id TEXT NOT NULL REFERENCES customers(id),
  type TEXT NOT NULL,
  file_name TEXT NOT NULL,
  media_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  status TEXT NOT NULL,
  verification_status TEXT NOT NULL,
  failure_reason TEXT,
  created_ms INTEGER NOT NULL,
  review_due_ms INTEGER,
  reviewed_ms INTEGER
);
CREATE INDEX IF NOT EXISTS documents_by_customer ON documents (customer_id, seq);
CREATE INDEX IF NOT EXISTS documents_review_due ON documents (review_due_ms) WHERE status = 'pending';

CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  topic TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  created_ms INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS subscriptions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  paused INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_success_ms INTEGER
);

CREATE TABLE IF NOT EXISTS webhooks (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  subscription_id TEXT NOT NULL REFERENCES subscriptions(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL REFERENCES events(id),
  topic TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  delivered INTEGER NOT NULL DEFAULT 0,
  first_attempt_ms INTEGER,
  auto_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_ms INTEGER,
  manual_due INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS webhooks_by_subscription ON webhooks (subscription_id, seq);
CREATE INDEX IF NOT EXISTS webhooks_due ON webhooks (next_attempt_ms) WHERE delivered = 0;
-- The webhooks with an attempt to come, in order: the delivery runner walks these, not the whole history.
CREATE INDEX IF NOT EXISTS webhooks_pending ON webhooks (subscription_id, seq)
  WHERE manual_due = 1 OR (delivered = 0 AND next_attempt_ms IS NOT NULL);

CREATE TABLE IF NOT EXISTS attempts (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  request_ms INTEGER NOT NULL,
  request_url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_body TEXT NOT NULL,
  response_ms INTEGER NOT NULL,
  response_headers TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_body TEXT NOT NULL,
  succeeded INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_webhook ON attempts (webhook_id, seq);

CREATE TABLE IF NOT EXISTS retries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  created_ms INTEGER NOT NULL,
  attempt_id TEXT
);

CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL,
  status INTEGER,
  headers TEXT,
  body BLOB,
  created_ms INTEGER NOT NULL
);
-- Every keyed POST first forgets keys older than 24 h: without this, a scan of all of them.
CREATE INDEX IF NOT EXISTS idempotency_by_age ON idempotency (created_ms);
`;

export type Row = Record<string, unknown>;

export interface Store {
  run(sql: string, ...params: SQLInputValue[]): void;
  get<T extends Row>(sql: string, ...params: SQLInputValue[]): T | undefined;
  all<T extends Row>(sql: string, ...params: SQLInputValue[]): T[];
  /** Runs `work` in one transaction; nested calls join the outer one. */
  transaction<T>(work: () => T): T;
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  close(): void;
}

export function openStore(location: string): Store {
  const db = new DatabaseSync(location);
  if (location !== ':memory:') {
    // The data file holds customers' data: readable by this user only, like the app's journal.
    chmodSync(location, 0o600);
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 2000;');
  }
  db.exec('PRAGMA foreign_keys = ON;');
  db.exec(SCHEMA);
  const statements = new Map<string, StatementSync>();
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const store: Store = {
    run: (sql, ...params) => {
      prepared(sql).run(...params);
    },
    get: <T extends Row>(sql: string, ...params: SQLInputValue[]) =>
      prepared(sql).get(...params) as T | undefined,
    all: <T extends Row>(sql: string, ...params: SQLInputValue[]) => prepared(sql).all(...params) as T[],
    transaction: (work) => {
      if (db.isTransaction) return work();
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = work();
        db.exec('COMMIT');
        return result;
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    getMeta: (key) => store.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', key)?.value,
    setMeta: (key, value) =>
      store.run(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        key,
        value,
      ),
    close: () => {
      statements.clear();
      if (db.isOpen) db.close();
    },
  };
  return store;
}

/** Values the sandbox keeps once per data file, created on first use (credentials, account id). */
export function stableValue(store: Store, key: string, create: () => string): string {
  const existing = store.getMeta(key);
  if (existing !== undefined) return existing;
  const value = create();
  store.setMeta(key, value);
  return value;
}
