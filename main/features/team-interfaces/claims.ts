// Claims, roles and the team's settings: concerns that differ between a solo desk and a team's desk, as
// interfaces the features use (retries and uploads ask `beforeChange`; the queue resolves its claim filter;
// exports and stored images ask the role). The composition chooses the implementation once: a team's
// (main/team/claims/) shares them through the team store; a solo desk's (main/variant/local.ts) holds every
// case, is its own lead and has no team settings. Features never ask which one runs.
import type { CaseClaim, Claim, ClaimNotice } from '#contract/claims.ts';
import type { AgeingSection, QueueFilters } from '#contract/queue-view.ts';
import type { LeadAction, TeamMe, TeamSettings } from '#contract/roles.ts';
import type { TeamOverview } from '#contract/team-overview.ts';
import { refusal } from '#main/data/failures.ts';
import type { ClaimScope, DueBefore, HolderCounts } from '#main/data/journal/index.ts';
import type { PeriodFiguresSource } from './period-report.ts';

export interface ClaimListener {
  /** A case's claim changed, on any desk. */
  changed(change: CaseClaim): void;
  /** This reviewer lost a case, or was given one. */
  notice(notice: ClaimNotice): void;
}

export interface Claims {
  /** Whether cases are claimed here (a team's desk). */
  readonly shared: boolean;
  get(customerId: string): Promise<Claim | null>;
  /** Takes the case; refuses in words (ClaimedByOther) when another reviewer holds it. */
  take(customerId: string): Promise<Claim | null>;
  /**
   * Before an action that changes the case on the service (a retry, an upload), and before any request:
   * refuses in words when another reviewer holds the case, takes it when nobody does, and starts the
   * holder's idle time again.
   */
  beforeChange(customerId: string): Promise<void>;
  release(customerId: string): Promise<Claim | null>;
  /** A lead's (the caller checks the role first, the store again). */
  reassign(customerId: string, to: string, note: string): Promise<Claim | null>;
  /** A lead's (the caller checks the role first, the store again). */
  takeOver(customerId: string, reason: string): Promise<Claim | null>;
  /** Takes the unclaimed case of these sections that has waited longest; null when none waits. */
  next(sections: readonly AgeingSection[]): Promise<Claim | null>;
  /** The queue's claim filter as the journal reads it; undefined: every case. */
  scope(filter: QueueFilters['claim']): ClaimScope | undefined;
  /** The queue's work by who holds it (this reviewer's row marked). */
  counts(due: DueBefore): Promise<Array<HolderCounts & { mine: boolean }>>;
  /** The team's reviewers, for a reassignment and the queue's "by reviewer". */
  reviewers(): Promise<Array<{ login: string; role: 'reviewer' | 'lead'; me: boolean }>>;
  /** Hears every claim change and this reviewer's notices; returns the stop. */
  watch(listener: ClaimListener): () => void;
  close(): Promise<void>;
}

export interface Roles {
  /** This desk's reviewer, their role and what it allows (a team's desk asks the store). */
  me(): Promise<TeamMe>;
}

/**
 * Refuses, in words and before anything is asked of the store, what this reviewer's role does not allow; else
 * answers who this reviewer is (the caller need not ask again).
 */
export async function requireLead(roles: Roles, action: LeadAction): Promise<TeamMe> {
  const me = await roles.me();
  if (!me.can[action]) throw refusal.leadOnly(action);
  return me;
}

export interface TeamSettingsAccess {
  get(): Promise<TeamSettings>;
  /** A lead's (the caller checks the role first, the store again). */
  update(patch: Partial<TeamSettings>): Promise<TeamSettings>;
}

/**
 * What the Team screen's figures are read for: the time zone "today" is in, and the overdue limits at a
 * moment. The moment is the source's: a team's store reads its own clock, so that every desk of the team,
 * whatever its clock says, sees the same figures.
 */
export interface OverviewAsk {
  timeZone: string;
  dueAt(now: Date): DueBefore;
}

/** The lead's Team screen's figures: a team's store computes them; a solo desk has no team. */
export interface TeamOverviewSource {
  /** The team's figures now (everything but the targets, which are this desk's). */
  read(ask: OverviewAsk): Promise<Omit<TeamOverview, 'targets'>>;
}

/** What the desk variant gives the features about claims, roles and the team's settings. */
export interface Teamwork {
  readonly claims: Claims;
  readonly roles: Roles;
  readonly settings: TeamSettingsAccess;
  /** The lead's Team screen's figures. */
  readonly overview: TeamOverviewSource;
  /** The period report's figures (a lead's, too). */
  readonly period: PeriodFiguresSource;
}
