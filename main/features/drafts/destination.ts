import type { SubmitResult } from '#contract/drafts.ts';

/** This desk's own outbox, as a destination sees it. */
export interface LocalOutbox {
  submit(ids: readonly string[]): Promise<SubmitResult>;
  /** Drains what is queued (start-up, reconnection). */
  resume(): void;
}

/** What submitting did, and which drafts left this desk or wait on it for somewhere else to take them. */
export interface Submitted extends SubmitResult {
  /** Drafts that left this desk (for the team outbox): they leave its list. */
  moved: readonly string[];
  /** Drafts kept queued here until their destination answers. */
  waiting: readonly string[];
}

/**
 * Where drafts go once submitted: a solo desk's own outbox sends them to the service; a team desk moves them
 * into the team outbox, which whoever drains sends. Chosen when the desk is composed (main/variant/), so the
 * drafts feature never asks which mode it is in.
 */
export interface DraftDestination {
  /** Whether this desk's own outbox may send its queued drafts to the service. */
  sendsFromHere(): boolean;
  submit(ids: readonly string[]): Promise<Submitted>;
  /** At start-up and every reconnection: drain, or move what waited here. */
  onConnected(): Promise<{ moved: readonly string[] }>;
}

export type DraftDestinationFactory = (outbox: LocalOutbox) => DraftDestination;
