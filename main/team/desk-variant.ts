// A desk working on its team's store: the journal is the team journal, drafts go to the team outbox, the
// team's hub listens for webhooks and reconciles (this desk's Webhooks screen shows the team's logs).
import type { DeskVariant } from '../variant/index.ts';
import { teamDeskWebhooksFeature } from './desk-webhooks.ts';
import type { TeamRuntime } from './runtime.ts';

export function teamDesk(runtime: TeamRuntime): DeskVariant {
  return {
    journal: runtime.journal,
    teamId: runtime.teamId,
    drafts: () => ({
      sendsFromHere: () => false,
      submit: (ids) => runtime.submit(ids),
      onConnected: () => runtime.flushLocal(),
    }),
    reconcile: { onConnected: () => undefined },
    webhooks: (context) => teamDeskWebhooksFeature(context),
    close: () => runtime.close(),
  };
}
