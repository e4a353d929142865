// Claims on a team's desk: written through the team store's functions (claim-store.ts), which decide who holds
// a case; read from this desk's replica, which every desk's changes reach live (LISTEN/NOTIFY, replication.ts),
// so the queue and the case say "Ana has this" without asking the store. A write resolves once the replica
// holds it (read-your-writes, as the team journal's writes do). Idle claims are swept now and then by every
// desk: the store's clock decides, and the first desk to sweep one audits its expiry.
import type { Claim, ClaimNotice } from '#contract/claims.ts';
import { refusal } from '#main/data/failures.ts';
import { type ClaimChange, claimNotePlace, type LocalClaim } from '#main/data/journal/claims.ts';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Claims } from '#main/features/team-interfaces/claims.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { Replication } from '../journal/replication.ts';
import type { ClaimOutcome, ClaimStore } from './claim-store.ts';

/** How often a desk sweeps idle claims: an idle time is minutes, a minute late is on time. */
export const SWEEP_EVERY_MS = 60_000;

export interface TeamClaimsOptions {
  store: ClaimStore;
  replication: Pick<Replication, 'upTo' | 'catchUp' | 'watch'>;
  local: Pick<SqliteJournal, 'replica' | 'queue'>;
  /** The team key's cipher: a note or a reason is sealed before it leaves the desk. */
  cipher: PersonalCipher;
  /** This desk's reviewer (their database login). */
  login: string;
  log: Logger;
  /** Starts the periodic sweep; returns its stop. Tests pass their own to sweep when they choose. */
  every?: (ms: number, run: () => void) => () => void;
}

const intervalTimer = (ms: number, run: () => void) => {
  const timer = setInterval(run, ms);
  timer.unref?.();
  return () => clearInterval(timer);
};

export function teamClaims(options: TeamClaimsOptions): Claims {
  const { store, replication, local, cipher, login, log } = options;

  const claimOf = (row: LocalClaim | undefined): Claim | null => {
    if (!row?.holder || !row.since) return null;
    const how = row.how === 'release' || row.how === 'expire' ? 'take' : row.how;
    return {
      customerId: row.customerId,
      holder: row.holder,
      mine: row.holder === login,
      since: row.since,
      how,
      by: row.changedBy,
      note: row.note,
    };
  };
  const read = async (customerId: string) => claimOf(await local.replica.claim(customerId));

  /** The claim once the replica holds the store's answer; a touch draws no number, a catch-up is enough. */
  const settled = async (customerId: string, outcome: ClaimOutcome) => {
    if (outcome.seq !== null) await replication.upTo(outcome.seq);
    const claim = await read(customerId);
    if (claim?.holder === outcome.holder || outcome.holder === null) return claim;
    await replication.catchUp();
    return read(customerId);
  };
  const takeAs = async (customerId: string, how: 'take' | 'action') => {
    const outcome = await store.take(customerId, how);
    if (outcome.outcome === 'refused') {
      await settled(customerId, outcome);
      throw refusal.claimedBy(outcome.holder ?? 'Another reviewer');
    }
    return settled(customerId, outcome);
  };
  const seal = (customerId: string, text: string) => cipher.seal(claimNotePlace(customerId), text);

  const stopSweeping = (options.every ?? intervalTimer)(SWEEP_EVERY_MS, () => {
    store.expire().catch((error: unknown) => log.warn('idle claims not swept', describeError(error)));
  });

  return {
    shared: true,
    get: read,
    take: (customerId) => takeAs(customerId, 'take'),
    async beforeChange(customerId) {
      await takeAs(customerId, 'action');
    },
    async release(customerId) {
      const outcome = await store.release(customerId);
      if (outcome.outcome === 'refused') throw refusal.notYourClaim(outcome.holder);
      return settled(customerId, outcome);
    },
    async reassign(customerId, to, note) {
      return settled(customerId, await store.reassign(customerId, to, seal(customerId, note)));
    },
    async takeOver(customerId, reason) {
      return settled(customerId, await store.takeOver(customerId, seal(customerId, reason)));
    },
    async next(sections) {
      const taken = await store.next(sections);
      if (taken === null) return null;
      // Read-your-writes by the take's own change number: heard on the feed, not read from the store.
      await replication.upTo(taken.seq);
      return read(taken.customerId);
    },
    scope(filter) {
      if (filter === undefined) return undefined;
      if (filter === 'unclaimed') return { unclaimed: true };
      return { holder: filter === 'mine' ? login : filter.reviewer };
    },
    async counts(due) {
      return (await local.queue.holderCounts(due)).map((row) => ({ ...row, mine: row.holder === login }));
    },
    async reviewers() {
      return (await store.reviewers()).map((reviewer) => ({ ...reviewer, me: reviewer.login === login }));
    },
    watch(listener) {
      return replication.watch(({ claims }) => {
        for (const change of claims) {
          listener.changed({ customerId: change.claim.customerId, claim: claimOf(change.claim) });
          const notice = noticeFor(change, login);
          if (notice) listener.notice(notice);
        }
      });
    },
    async close() {
      stopSweeping();
    },
  };
}

/** What this reviewer is told of a change: a case of theirs gone to someone else, or one given to them. */
export function noticeFor({ claim, before }: ClaimChange, login: string): ClaimNotice | null {
  const { customerId, changedBy: by, note } = claim;
  const told = (kind: ClaimNotice['kind'], text: string): ClaimNotice => ({
    customerId,
    kind,
    by,
    note,
    text,
  });
  const noted = (label: string) => (note ? ` ${label}: ${note}` : '');
  if (before === login && claim.holder !== login) {
    // A lead who gives their own case away did it themselves: nothing to tell them.
    if (claim.how === 'reassign' && by === login) return null;
    if (claim.how === 'takeOver')
      return told('takenOver', `${by} took over a case you held.${noted('Reason')}`);
    if (claim.how === 'reassign') {
      return told('reassignedAway', `${by} reassigned a case you held to ${claim.holder}.${noted('Note')}`);
    }
    if (claim.how === 'release') return null;
    // Swept, or taken by someone else: a case is taken from nobody, so the claim had run out first.
    return told('expired', 'Your claim on a case ended: it was idle for longer than the team allows.');
  }
  if (claim.holder === login && before !== login && claim.how === 'reassign') {
    return told('reassignedToYou', `${by} assigned a case to you.${noted('Note')}`);
  }
  return null;
}
