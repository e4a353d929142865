// The interface of the one verification retry per customer the service allows, recorded as used.

export interface RetryRecord {
  customerId: string;
  usedAt: string;
  /** e.g. the status it led to, or why it failed; null until known. */
  outcome: string | null;
}

export interface RetriesRepository {
  /** Marks the retry used (the first time only) and sets its outcome. */
  record(customerId: string, outcome: string | null): Promise<RetryRecord>;
  get(customerId: string): Promise<RetryRecord | undefined>;
  list(): Promise<RetryRecord[]>;
  /** The service refused the retry's fields without acting on them: the one retry is still there. */
  release(customerId: string): Promise<void>;
}
