// A desk on its own journal: solo mode. It listens for webhooks, reconciles, and its outbox sends drafts.
import path from 'node:path';
import type { SettingsStore } from '../config/settings-store.ts';
import type { DraftDestination, LocalOutbox } from '../drafts/destination.ts';
import { refusal } from '../failures.ts';
import { openJournal } from '../journal/index.ts';
import { webhooksFeature } from '../webhooks/index.ts';
import { vaultSubscriptionSecrets } from '../webhooks/subscription-secrets.ts';
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
    teamId: null,
    drafts: (outbox) => sentFromHere(outbox, joined),
    reconcile: {
      onConnected(reconcileAll) {
        if (!joined()) reconcileAll();
      },
    },
    webhooks: (context) => webhooksFeature(context, vaultSubscriptionSecrets(context.vault)),
    close: () => journal.close(),
  };
}

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
