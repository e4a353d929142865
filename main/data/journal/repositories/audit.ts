// The audit log's interface: every reviewer action, who, what, which customer, when, outcome; append-only.
import type { AuditAction } from '#contract/audit-actions.ts';

/**
 * An action read back from an audit log and copied as it was recorded (a desk's entries brought into its
 * team, a team's kept on leaving): it may be one a newer Vetted wrote, so it is not checked against this
 * Vetted's actions. Tests of the journal's storage use it for labels of their own.
 */
export type UncheckedAction = string & { readonly unchecked: true };
export const uncheckedAction = (action: string) => action as UncheckedAction;

export interface AuditInput {
  /** What was done, e.g. `customer.create`, `customer.retry`, `document.upload`: contract/audit-actions.ts. */
  action: AuditAction | UncheckedAction;
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

/**
 * An entry's place in the audit log's hash chain (main/data/journal/audit-chain.ts says how each is computed):
 * lower-case hex SHA-256 hashes and an HMAC-SHA256 seal.
 */
export interface AuditLink {
  /** The version of the content's hashed form. */
  version: number;
  /** The chain hash of the entry before (64 zeros for the first). */
  prevHash: string;
  contentHash: string;
  chainHash: string;
  seal: string;
}

export interface LinkedAuditEntry extends AuditEntry {
  link: AuditLink;
}

/** The chain's last entry: seq 0 and the zero hash while the log is empty. */
export interface AuditHead {
  seq: number;
  chainHash: string;
  /** The last entry's seal; null while the log is empty. */
  seal: string | null;
  /** Tells the key that seals this log from another one (see AuditSealer.keyCheck). */
  keyCheck: string;
  /** A team's audit keys, wrapped by its team key: an export carries them for its offline check. */
  auditKeys?: WrappedAuditKey[];
}

/** An audit seal key as a team store keeps it: wrapped, with the entry it begins at and the key before it. */
export interface WrappedAuditKey {
  id: string;
  from: number;
  after: string | null;
  wrapped: string;
}

export interface AuditRepository {
  /** Appends the entry to the chain, linked and sealed where it is written. */
  record(entry: AuditInput): Promise<AuditEntry>;
  /** Newest first, narrowed by the filter. */
  list(query?: AuditFilter & { limit?: number; offset?: number }): Promise<AuditEntry[]>;
  count(filter?: AuditFilter): Promise<number>;
  /** The people and actions that occur, for the filter's choices. */
  facets(): Promise<{ actors: string[]; actions: string[] }>;
  /**
   * Entries with their links, oldest first (chain order), narrowed by the filter, after `afterSeq` and up to
   * `upToSeq`: a long log is read page by page.
   */
  linked(
    query: AuditFilter & { afterSeq?: number; upToSeq?: number; limit: number },
  ): Promise<LinkedAuditEntry[]>;
  head(): Promise<AuditHead>;
}
