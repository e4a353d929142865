import type { StoreApi, UseBoundStore } from 'zustand';
import { useApprovalsStore } from '../features/approvals/approvals-store.ts';
import { useAuditStore } from '../features/audit/audit-store.ts';
import { useCustomerStore } from '../features/customer/customer-store.ts';
import { useDocumentsStore } from '../features/documents/documents-store.ts';
import { useOutboxStore } from '../features/drafts/outbox-store.ts';
import { useEventLogStore } from '../features/events/event-log-store.ts';
import { useOverdueStore } from '../features/queue/overdue-store.ts';
import { useQueueStore } from '../features/queue/queue-store.ts';
import { useRetryStore } from '../features/retry/retry-store.ts';
import { useSandboxStore } from '../features/sandbox/sandbox-store.ts';
import { useDiagnosticsStore } from '../features/settings/diagnostics-store.ts';
import { useHistoryStore } from '../features/settings/history-store.ts';
import { useSettingsStore } from '../features/settings/settings-store.ts';
import { useTeamStore } from '../features/settings/team-store.ts';
import { useUpdatesStore } from '../features/settings/updates-store.ts';
import { useTrendsStore } from '../features/trends/trends-store.ts';
import { useWebhooksStore } from '../features/webhooks/webhooks-store.ts';
import { useCaseStore } from '../shared/case/case-store.ts';
import { useJobStore } from '../shared/jobs/job-store.ts';
import { useClaimsStore } from '../shared/team/claims-store.ts';
import { useStorePresenceStore } from '../shared/team/store-presence-store.ts';
import { useTeamMeStore } from '../shared/team/team-me-store.ts';
import { useTeamViewStore } from '../shared/team/team-view-store.ts';
import { useAppStore } from '../store.ts';
import { useToastStore } from './toast-store.ts';

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
  useTrendsStore,
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
