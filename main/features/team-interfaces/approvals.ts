// Four eyes: a concern that differs between a solo desk and a team's desk, as the interface the features
// use (the retry and the queue export ask `required`; the approvals feature lists, decides and finishes).
// The composition chooses the implementation once: a team's (main/team/approvals/) keeps what waits in the
// team store, sealed with the team key, and lets the store decide who may approve; a solo desk's
// (main/variant/local.ts) never needs an approval. Features never ask which one runs.
import type { ApprovalKind, ApprovalState } from '#contract/approvals.ts';

/** An approval as the store keeps it, its payload aside. */
export interface StoredApproval {
  id: string;
  kind: ApprovalKind;
  customerId: string | null;
  maker: string;
  requestedAt: string;
  expiresAt: string;
  state: ApprovalState;
  checker: string | null;
  decidedAt: string | null;
  note: string | null;
  outcome: string | null;
}

export interface Approvals {
  /** Which actions wait for a second reviewer (the team's setting). */
  required(): Promise<Record<ApprovalKind, boolean>>;
  /** The maker asks; the payload (JSON, personal data in it) is sealed before it leaves the desk. */
  request(kind: ApprovalKind, customerId: string | null, payload: string): Promise<StoredApproval>;
  /** What waits for a decision, and what was approved and not yet done. */
  open(): Promise<StoredApproval[]>;
  /** The case's latest approval, in any state. */
  latestFor(customerId: string): Promise<StoredApproval | null>;
  get(id: string): Promise<StoredApproval | null>;
  /** The payload, opened on this desk; null once it was deleted (sent, rejected, withdrawn, expired). */
  payload(id: string): Promise<string | null>;
  /**
   * A lead other than the maker decides (the store checks both). Approving a retry hands its payload to this
   * desk, which sends it, and deletes it from the store in the same statement.
   */
  decide(
    id: string,
    approve: boolean,
    note: string,
  ): Promise<{ approval: StoredApproval; payload: string | null }>;
  /** An approved action done: a retry by its approver (with the outcome), an export by its maker (taking it). */
  finish(id: string, outcome: string): Promise<{ approval: StoredApproval; payload: string | null }>;
  /** The maker withdraws what waits. */
  cancel(id: string): Promise<StoredApproval>;
  /** Hears every change, from any desk; returns the stop. */
  watch(listener: (approval: StoredApproval) => void): () => void;
  close(): Promise<void>;
}
