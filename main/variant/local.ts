// A desk on its own journal: solo mode. It listens for webhooks, reconciles, and its outbox sends drafts. Its
// one reviewer holds every case and is their own lead: no claims, no roles, no team settings.
import path from 'node:path';
import { allowedTo } from '#contract/roles.ts';
import { refusal } from '../data/failures.ts';
import { type Journal, openJournal, type SqliteJournal } from '../data/journal/index.ts';
import type { DraftDestination, LocalOutbox } from '../features/drafts/destination.ts';
import type { Approvals } from '../features/team-interfaces/approvals.ts';
import type { Claims, Teamwork } from '../features/team-interfaces/claims.ts';
import { noTeamStore } from '../features/team-interfaces/store-presence.ts';
import type { TrendsSource } from '../features/team-interfaces/trends.ts';
import { webhooksFeature } from '../features/webhooks/index.ts';
import { vaultSubscriptionSecrets } from '../features/webhooks/subscription-secrets.ts';
import type { SettingsStore } from '../ground/config/settings-store.ts';
import { osUserName } from '../ground/os-user.ts';
import type { DeskVariant } from './index.ts';

export interface LocalDeskOptions {
  dataDir: string;
  /** The vault's key for the journal's personal data. */
  dataKey: Buffer;
  settings: Pick<SettingsStore, 'get'>;
}

export function localDesk(options: LocalDeskOptions): DeskVariant {
  const journal = openJournal({ file: path.join(options.dataDir, 'journal.db'), dataKey: options.dataKey });
  // Joined a team whose store is not open here (joining takes effect at the next start, or the store refused
  // to open): the team's hub reconciles, and a draft sent from here would bypass the team outbox, so this
  // desk holds both until it starts on the team store.
  const joined = () => options.settings.get().team !== undefined;
  return {
    journal,
    deskJournal: journal,
    teamId: null,
    drafts: (outbox) => sentFromHere(outbox, joined),
    reconcile: {
      onConnected(reconcileAll) {
        if (!joined()) reconcileAll();
      },
    },
    webhooks: (context) => webhooksFeature(context, vaultSubscriptionSecrets(context.vault)),
    teamwork: soloTeamwork(journal, osUserName()),
    approvals: soloApprovals,
    storePresence: noTeamStore,
    trends: soloTrends(journal),
    close: () => journal.close(),
  };
}

/**
 * The solo desk's claims and roles, honest no-ops: every case is this reviewer's (the queue's "Mine" is the
 * whole queue, "Unclaimed" and other reviewers' are empty), nothing is ever refused for a claim or a role,
 * and there is no one to hand a case to and no team whose settings to change.
 */
export function soloTeamwork(journal: Journal, reviewer: string): Teamwork {
  const claims: Claims = {
    shared: false,
    get: async () => null,
    take: async () => null,
    beforeChange: async () => undefined,
    release: async () => null,
    async reassign() {
      throw refusal.soloDesk('every case is yours, and there is no one to hand one to');
    },
    takeOver: async () => null,
    next: async () => null,
    scope: (filter) =>
      filter === undefined ||
      filter === 'mine' ||
      (typeof filter === 'object' && filter.reviewer === reviewer)
        ? undefined
        : { nothing: true },
    async counts(due) {
      const [all] = await journal.queue.holderCounts(due);
      return all ? [{ ...all, holder: reviewer, mine: true, held: 0 }] : [];
    },
    reviewers: async () => [{ login: reviewer, role: 'lead', me: true }],
    watch: () => () => undefined,
    close: async () => undefined,
  };
  const noSettings = async (): Promise<never> => {
    throw refusal.soloDesk('team settings belong to a team');
  };
  return {
    claims,
    roles: {
      me: async () => ({ mode: 'solo', reviewer, role: 'lead', claims: false, can: allowedTo('lead') }),
    },
    settings: { get: noSettings, update: noSettings },
    // The Team screen is not shown on a solo desk; asked anyway, it says why there is nothing to show.
    overview: {
      async read() {
        throw refusal.soloDesk('there is no team whose work to overview');
      },
    },
  };
}

/**
 * The solo desk's trends: its reviewer's own work, counted from its journal (where every case is theirs). A
 * solo desk has no team whose trends to show, and says so.
 */
export function soloTrends(journal: Pick<SqliteJournal, 'trends'>): TrendsSource {
  return {
    async read(query) {
      if (query.scope === 'team') throw refusal.soloDesk('there is no team whose trends to show');
      return journal.trends.read(query);
    },
  };
}

/**
 * The solo desk's four eyes, an honest no-op: nothing ever waits for a second reviewer (there is none), so
 * nothing is asked, listed or decided, and a retry or an export leaves as it always did.
 */
export const soloApprovals: Approvals = {
  required: async () => ({ retry: false, exportNames: false }),
  async request() {
    throw refusal.soloDesk('nothing waits for a second reviewer’s approval');
  },
  open: async () => [],
  latestFor: async () => null,
  get: async () => null,
  payload: async () => null,
  async decide() {
    throw refusal.soloDesk('nothing waits for a second reviewer’s approval');
  },
  async finish() {
    throw refusal.soloDesk('nothing waits for a second reviewer’s approval');
  },
  async cancel() {
    throw refusal.soloDesk('nothing waits for a second reviewer’s approval');
  },
  watch: () => () => undefined,
  close: async () => undefined,
};

/** The desk's own outbox sends; once a team is joined, nothing leaves and submitting says why. */
function sentFromHere(outbox: LocalOutbox, joined: () => boolean): DraftDestination {
  return {
    sendsFromHere: () => !joined(),
    async submit(ids) {
      if (joined()) throw refusal.teamNotOpen();
      return { ...(await outbox.submit(ids)), moved: [], waiting: [] };
    },
    async onConnected() {
      outbox.resume();
      return { moved: [] };
    },
  };
}
