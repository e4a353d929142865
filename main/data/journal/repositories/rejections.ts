// The interface of the webhook listener's security log: requests it refused.

export interface RejectionInput {
  remoteAddress: string;
  forwardedFor?: string | null;
  /** The HTTP status answered (401, 404, 405, 408, 413…). */
  status: number;
  /** Short and fixed, e.g. `signature-missing`, `signature-mismatch`, `too-large`. */
  reason: string;
}

export interface Rejection {
  seq: number;
  at: string;
  remoteAddress: string;
  forwardedFor: string | null;
  status: number;
  reason: string;
}

export interface RejectionsRepository {
  record(entry: RejectionInput): Promise<void>;
  /** Newest first. */
  list(page?: { limit?: number; offset?: number }): Promise<Rejection[]>;
  count(): Promise<number>;
}
