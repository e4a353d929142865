// The audit log's interface: every reviewer action, who, what, which customer, when, outcome; append-only.

export interface AuditInput {
  /** What was done, e.g. `customer.create`, `customer.retry`, `document.upload`. */
  action: string;
  customerId?: string | null;
  /** e.g. `ok`, `failed`, `refused`. */
  outcome: string;
  /** A short, non-personal detail: an error code, a draft id, a status, a reveal's reason. */
  detail?: string | null;
  /** Who did it; the journal's own actor (the OS user in solo mode) when not given. */
  actor?: string;
}

export interface AuditEntry {
  seq: number;
  at: string;
  /** '' for entries written before actors were recorded. */
  actor: string;
  action: string;
  customerId: string | null;
  outcome: string;
  detail: string | null;
}

/** Every condition is optional; times are ISO-8601, `from` inclusive, `to` exclusive. */
export interface AuditFilter {
  actor?: string;
  action?: string;
  customerId?: string;
  from?: string;
  to?: string;
}

export interface AuditRepository {
  record(entry: AuditInput): Promise<AuditEntry>;
  /** Newest first, narrowed by the filter. */
  list(query?: AuditFilter & { limit?: number; offset?: number }): Promise<AuditEntry[]>;
  count(filter?: AuditFilter): Promise<number>;
  /** The people and actions that occur, for the filter's choices. */
  facets(): Promise<{ actors: string[]; actions: string[] }>;
}
