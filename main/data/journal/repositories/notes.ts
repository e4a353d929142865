// The interface of reviewers' notes on a case.

export interface Note {
  seq: number;
  customerId: string;
  at: string;
  author: string;
  text: string;
}

export interface NotesRepository {
  add(note: { customerId: string; text: string; author?: string }): Promise<Note>;
  /** A customer's notes, newest first. */
  list(customerId: string, page?: { limit?: number }): Promise<Note[]>;
  count(customerId: string): Promise<number>;
  /** The latest note of each customer given that has one, for the queue's rows. */
  latest(customerIds: readonly string[]): Promise<Record<string, Note>>;
  /** The customers with a note containing the term (case-insensitive), most recently noted first. */
  customersMatching(term: string): Promise<string[]>;
}
