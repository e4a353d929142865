// What a nemesis run records and reads back (#37): every operation a desk invoked, with how it ended, and the
// team as it stands once every fault is healed and everything has settled. The checker (checker.ts) reads
// only these shapes, so small crafted histories test it without a team.

/** The operations the desks' workload performs through their channels. */
export const OP_KINDS = [
  'draft',
  'note',
  'take',
  'release',
  'next',
  'requestExport',
  'approve',
  'collect',
] as const;
export type OpKind = (typeof OP_KINDS)[number];

/**
 * `ok`: acknowledged, it happened. `fail`: refused in words (a claim held by another, an approval settled):
 * it did not happen. `unknown`: no answer, or a failure that says nothing of whether it happened (a lost
 * connection, a desk that never answered before the run ended): it may have happened, at most once.
 */
export type Outcome = 'ok' | 'fail' | 'unknown';

export interface Op {
  /** Unique in the run: `<desk>-<n>`. */
  id: string;
  /** The desk's login (the name the store stamps on what it writes). */
  desk: string;
  kind: OpKind;
  /**
   * What makes the operation's effect findable: a draft's e-mail, a note's text (a unique token), a case's
   * id for claims, an approval's id for approve and collect ('' for a request not yet answered).
   */
  key: string;
  /** A draft's id (drafts), the case (notes, claims), the approval (requestExport once answered). */
  ref?: string;
  invokedAt: number;
  completedAt?: number;
  outcome: Outcome;
  /** The error's code and words, for fail and unknown. */
  error?: string;
}

/** An audit chain entry as the store holds it (detail in plaintext: it never carries personal data). */
export interface AuditLine {
  seq: number;
  actor: string;
  action: string;
  customerId: string | null;
  outcome: string;
  detail: string | null;
}

/** What a replica holds that the store holds too: each row by its change number. */
export interface ReplicaImage {
  /** [customer id, change number], sorted. */
  customers: Array<[string, number]>;
  /** Note change numbers, sorted. */
  notes: number[];
  /** [customer id, holder or null, change number], sorted. */
  claims: Array<[string, string | null, number]>;
}

export interface FinalState {
  /**
   * Each desk or hub process that ended by itself during the run (each was started again), and a team that
   * did not settle once healed (what held it up).
   */
  crashes: string[];
  /** How many customers the service holds with each draft's e-mail (every e-mail a draft op named). */
  serviceByEmail: Record<string, number>;
  /** The team outbox's rows for the drafts the run named. */
  outbox: Array<{ draftId: string; state: string; customerId: string | null }>;
  /** The store's notes, opened with the team key. */
  notes: Array<{ seq: number; customerId: string; author: string; text: string }>;
  approvals: Array<{ id: string; maker: string; state: string; checker: string | null }>;
  /** The store's claims as they stand. */
  claims: Array<{ customerId: string; holder: string | null }>;
  audit: { holds: boolean; problem?: string; entries: AuditLine[] };
  store: ReplicaImage;
  replicas: Array<{ desk: string; image: ReplicaImage }>;
}

/** The text of a note the workload writes: a token the checker finds in the store's notes. */
export const noteText = (opId: string) => `nemesis note ${opId}`;
export const isNemesisNote = (text: string) => text.startsWith('nemesis note ');

/** A crashed process's standard error in a few lines: what it threw and where it was emitted, no frames. */
export function crashWords(stderr: string): string {
  return (
    stderr
      .split('\n')
      .map((line) => line.trim())
      // A log line of level error says what failed (a hub prints those before its words): kept.
      .filter(
        (line) =>
          line.includes('"level":"error"') ||
          (line !== '' && !line.startsWith('at ') && !/^(\^|Node\.js v|throw |[{}])/.test(line)),
      )
      .slice(0, 6)
      .join(' | ')
  );
}
