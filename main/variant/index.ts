// What differs between a solo desk and a team desk, as one interface per concern. The composition
// (main/compose/) picks the implementations once, when it builds the desk: this folder's local one, or
// team mode's (main/team/desk-variant.ts). Features take the parts they need and never ask which mode runs.

import type { Journal, SqliteJournal } from '../data/journal/index.ts';
import type { DraftDestinationFactory } from '../features/drafts/destination.ts';
import type { DeskContext } from '../features/feature.ts';
import type { Approvals } from '../features/team-interfaces/approvals.ts';
import type { Teamwork } from '../features/team-interfaces/claims.ts';
import type { StorePresenceSource } from '../features/team-interfaces/store-presence.ts';
import type { TrendsSource } from '../features/team-interfaces/trends.ts';
import type { DeskWebhooks } from '../features/webhooks/index.ts';
import type { ReconcileDuty } from '../sync/reconcile/duty.ts';

export interface DeskVariant {
  /** Where customers, notes, events and the audit log are read and written. */
  readonly journal: Journal;
  /**
   * This desk's own SQLite journal: solo, the journal itself; in a team, the replica under the team journal.
   * What the desk did on its own stays in it, for bringing into a team it joins.
   */
  readonly deskJournal: SqliteJournal;
  /** The team whose store the journal is on; null on the desk's own journal. */
  readonly teamId: string | null;
  /** Where drafts go once submitted. */
  readonly drafts: DraftDestinationFactory;
  /** Who reconciles the customers with the service when the desk connects. */
  readonly reconcile: ReconcileDuty;
  /** Who listens for the service's webhooks: the Webhooks screen's feature for this desk. */
  webhooks(context: DeskContext): DeskWebhooks;
  /** Claims, roles and the team's settings: shared through the team store, or a solo desk's own. */
  readonly teamwork: Teamwork;
  /** Four eyes: what waits for a second reviewer's approval (a solo desk never needs one). */
  readonly approvals: Approvals;
  /** The trends: counted by the team store on a team's desk, by this desk's journal when solo. */
  readonly trends: TrendsSource;
  /** Whether the team store answers, for the main screen: a solo desk's never goes away. */
  readonly storePresence: StorePresenceSource;
  close(): Promise<void>;
}
