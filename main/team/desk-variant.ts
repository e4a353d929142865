// A desk working on its team's store: the journal is the team journal, drafts go to the team outbox, the
// team's hub listens for webhooks and reconciles (this desk's Webhooks screen shows the team's logs), and
// claims, roles and the team's settings are the store's.
import type { Logger } from '../log/logger.ts';
import type { DeskVariant } from '../variant/index.ts';
import { claimStore } from './claims/claim-store.ts';
import { teamClaims } from './claims/team-claims.ts';
import { teamRoles, teamSettings } from './claims/team-roles.ts';
import { teamDeskWebhooksFeature } from './desk-webhooks.ts';
import type { TeamRuntime } from './runtime.ts';

export function teamDesk(runtime: TeamRuntime, log: Logger): DeskVariant {
  const store = claimStore({
    pool: runtime.pool,
    target: runtime.target,
    sealer: runtime.sealer,
    clock: runtime.clock,
  });
  const claims = teamClaims({
    store,
    replication: runtime.replication,
    local: runtime.local,
    cipher: runtime.cipher,
    login: runtime.login,
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
    teamwork: { claims, roles: teamRoles(store, runtime.login), settings: teamSettings(store) },
    close: () => runtime.close(),
  };
}
