import type { CustomerDetail } from '#contract/customers.ts';
import { allNotifications } from '#contract/notifications.ts';
import type { ServiceStatus, SettingsView } from '#contract/settings.ts';
import { queueRow } from './queue-rows.ts';

/** A customer as `customers.get` answers, in `document` unless told otherwise. */
export function customerDetail(id: string, status = 'document'): CustomerDetail {
  const section = status === 'document' ? 'document' : 'verified';
  return {
    ...queueRow(id, section, 1),
    status,
    url: `https://sandbox.example/customers/${id}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    type: 'personal',
    created: null,
    lastRefreshedAt: null,
    history: [],
    links: [],
    actions: { retry: { allowed: false, reason: 'No' }, upload: { allowed: true, reason: null } },
    personal: null,
  };
}

/** The built-in sandbox, answering. */
export const ONLINE: ServiceStatus = {
  mode: 'sandbox',
  baseUrl: null,
  state: 'online',
  lastSuccessAt: null,
  detail: null,
};

/** Settings as `settings.get` answers on the built-in sandbox in browser mode, every notification on. */
export function sandboxSettings(): SettingsView {
  return {
    serviceMode: 'sandbox',
    hasClientSecret: false,
    webhookPort: 8789,
    notifications: allNotifications(true),
    tokenEndpoint: 'automatic',
    requestRate: 10,
    requestBurst: 20,
    ageingTargets: { retry: 24, document: 48, review: 72 },
    overdueNotifications: true,
    secretProtection: 'file-permissions',
    problem: null,
  };
}
