import type { StoreApi, UseBoundStore } from 'zustand';
import { useAppStore } from '#renderer/store.ts';
import { useToastStore } from '#renderer/ui/toast-store.ts';
import { useApprovalsStore } from '../approvals/approvals-store.ts';
import { useAuditStore } from '../audit/audit-store.ts';
import { useClaimsStore } from '../claims/claims-store.ts';
import { useTeamMeStore } from '../claims/team-me-store.ts';
import { useCaseStore } from '../customer/case-store.ts';
import { useCustomerStore } from '../customer/customer-store.ts';
import { useDocumentsStore } from '../documents/documents-store.ts';
import { useOutboxStore } from '../drafts/outbox-store.ts';
import { useEventLogStore } from '../events/event-log-store.ts';
import { useJobStore } from '../jobs/job-store.ts';
import { useOverdueStore } from '../queue/overdue-store.ts';
import { useQueueStore } from '../queue/queue-store.ts';
import { useRetryStore } from '../retry/retry-store.ts';
import { useSandboxStore } from '../sandbox/sandbox-store.ts';
import { useDiagnosticsStore } from '../settings/diagnostics-store.ts';
import { useHistoryStore } from '../settings/history-store.ts';
import { useSettingsStore } from '../settings/settings-store.ts';
import { useTeamStore } from '../settings/team-store.ts';
import { useUpdatesStore } from '../settings/updates-store.ts';
import { useStorePresenceStore } from '../team/store-presence-store.ts';
import { useTeamViewStore } from '../team/team-view-store.ts';
import { useWebhooksStore } from '../webhooks/webhooks-store.ts';

// biome-ignore lint/suspicious/noExplicitAny: every store, whatever its state.
type AnyStore = UseBoundStore<StoreApi<any>>;

/**
 * Every store of the page but the three that hold nothing of a customer (the vault's, the lock's, and the app's
 * place, whose open case is closed instead): while the desk is locked each is held at its state at start, so
 * nothing a customer said stays in the page. A store added later is caught by its unit test
 * (test/renderer/features/lock/lock-clearing.test.ts), which reads every store the renderer creates.
 */
export const CLEARED_STORES: readonly AnyStore[] = [
  useQueueStore,
  useOverdueStore,
  useCaseStore,
  useCustomerStore,
  useDocumentsStore,
  useRetryStore,
  useOutboxStore,
  useEventLogStore,
  useAuditStore,
  useApprovalsStore,
  useClaimsStore,
  useTeamMeStore,
  useTeamViewStore,
  useStorePresenceStore,
  useWebhooksStore,
  useJobStore,
  useSandboxStore,
  useSettingsStore,
  useTeamStore,
  useHistoryStore,
  useUpdatesStore,
  useDiagnosticsStore,
  useToastStore,
];

const clear = (store: AnyStore) => {
  const initial = store.getInitialState();
  if (store.getState() !== initial) store.setState(initial, true);
};

/** Every store back to its state at start, and the open case (or draft) closed: the address names neither. */
export function clearPersonalData(): void {
  for (const store of CLEARED_STORES) clear(store);
  const { view, navigate } = useAppStore.getState();
  navigate({ view: view === 'draft' ? 'queue' : view, customerId: null }, { replace: true });
}

/**
 * Clears now, and again whenever a store changes while `locked()` holds (an answer that left main just before
 * it locked must not bring a customer back into the page). Returns what stops holding them.
 */
export function keepClearedWhile(locked: () => boolean): () => void {
  clearPersonalData();
  const stops = CLEARED_STORES.map((store) =>
    store.subscribe(() => {
      if (locked()) clear(store);
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}
