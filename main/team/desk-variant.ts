// A desk working on its team's store: the journal is the team journal, drafts go to the team outbox, the
// team's hub listens for webhooks and reconciles (this desk's Webhooks screen shows the team's logs), and
// claims, roles, the team's settings and what waits for a second reviewer's approval are the store's.
import type { Logger } from '../ground/log/logger.ts';
import type { DeskVariant } from '../variant/index.ts';
import { approvalStore } from './approvals/approval-store.ts';
import { teamApprovals } from './approvals/team-approvals.ts';
import { claimStore } from './claims/claim-store.ts';
import { teamClaims } from './claims/team-claims.ts';
import { teamOverview } from './claims/team-overview.ts';
import { teamRoles, teamSettings } from './claims/team-roles.ts';
import { teamTrends } from './claims/team-trends.ts';
import { teamDeskWebhooksFeature } from './desk-webhooks.ts';
import type { TeamRuntime } from './runtime.ts';
import { APPROVALS_CHANNEL } from './store/sql.ts';

export function teamDesk(runtime: TeamRuntime, log: Logger): DeskVariant {
  const store = claimStore({
    pool: runtime.pool,
    target: runtime.target,
    sealer: runtime.sealer,
  });
  const claims = teamClaims({
    store,
    replication: runtime.replication,
    local: runtime.local,
    cipher: runtime.cipher,
    login: runtime.login,
    log,
  });
  const settings = teamSettings(store);
  const { pool, target, sealer } = runtime;
  const approvals = teamApprovals({
    store: approvalStore({ pool, target, sealer }),
    settings,
    cipher: runtime.cipher,
    // On the replica's session: a desk keeps one LISTENing session (each costs the store on every NOTIFY).
    listen(onChange) {
      const stop = runtime.replication.listen(APPROVALS_CHANNEL, {
        onMessage: onChange,
        onListening: onChange,
      });
      return async () => stop();
    },
    log,
  });
  return {
    journal: runtime.journal,
    deskJournal: runtime.local,
    teamId: runtime.teamId,
    drafts: () => ({
      sendsFromHere: () => false,
      submit: (ids) => runtime.submit(ids),
      onConnected: () => runtime.flushLocal(),
    }),
    reconcile: { onConnected: () => undefined },
    webhooks: (context) => teamDeskWebhooksFeature(context),
    teamwork: {
      claims,
      roles: teamRoles(store, runtime.login),
      settings,
      overview: teamOverview({ pool: runtime.pool, target: runtime.target, login: runtime.login }),
    },
    approvals,
    storePresence: runtime.presence,
    trends: teamTrends({ pool: runtime.pool, target: runtime.target }),
    close: () => runtime.close(),
  };
}
