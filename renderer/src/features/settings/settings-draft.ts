import { NOTIFICATION_KINDS, type NotificationSwitches } from '#contract/notifications.ts';
import type { SettingsPatch, SettingsView } from '#contract/settings.ts';

/** The settings form's fields as typed, before they are checked and sent. */
export interface Draft {
  serviceMode: SettingsView['serviceMode'];
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookPort: string;
  publicWebhookUrl: string;
  notifications: NotificationSwitches;
  sandboxProfile: NonNullable<SettingsView['sandboxProfile']>;
  tokenEndpoint: SettingsView['tokenEndpoint'];
  caBundlePath: string;
  requestRate: string;
  requestBurst: string;
}

/** The service account's network and pace: for corporate networks and large accounts. */
export const NETWORK_FIELDS = [
  {
    name: 'caBundlePath',
    label: 'Extra CA bundle (PEM file)',
    placeholder: '/etc/ssl/corporate-proxy.pem',
    hint: 'Only behind a proxy that inspects TLS: its certificate authorities, trusted besides this computer’s.',
  },
  {
    name: 'requestRate',
    label: 'Requests per second',
    inputMode: 'decimal',
    hint: 'Start-up refresh, import and catch-up share this pace, so a large account stays under the service’s limit.',
  },
  { name: 'requestBurst', label: 'Request burst', inputMode: 'numeric' },
] as const;

export const TOKEN_ENDPOINT_TEXT: Record<SettingsView['tokenEndpoint'], string> = {
  automatic: 'Automatic (recommended)',
  real: 'POST /token, form body with HTTP Basic (today’s service)',
  document: 'POST /oauth/v2/token, JSON body (interface document)',
};

export const draftOf = (settings: SettingsView): Draft => ({
  serviceMode: settings.serviceMode,
  baseUrl: settings.baseUrl ?? '',
  clientId: settings.clientId ?? '',
  clientSecret: '',
  webhookPort: String(settings.webhookPort),
  publicWebhookUrl: settings.publicWebhookUrl ?? '',
  notifications: { ...settings.notifications },
  sandboxProfile: settings.sandboxProfile ?? 'interface',
  tokenEndpoint: settings.tokenEndpoint,
  caBundlePath: settings.caBundlePath ?? '',
  requestRate: String(settings.requestRate),
  requestBurst: String(settings.requestBurst),
});

/** Only what changed is sent; an emptied field is cleared; the secret only when typed. */
export function patchOf(draft: Draft, settings: SettingsView): SettingsPatch {
  const patch: SettingsPatch = {};
  if (draft.serviceMode !== settings.serviceMode) patch.serviceMode = draft.serviceMode;
  const text = (key: 'baseUrl' | 'clientId' | 'publicWebhookUrl' | 'caBundlePath') => {
    const value = draft[key].trim();
    if (value !== (settings[key] ?? '')) patch[key] = value === '' ? null : value;
  };
  text('baseUrl');
  text('clientId');
  text('publicWebhookUrl');
  text('caBundlePath');
  if (draft.tokenEndpoint !== settings.tokenEndpoint) patch.tokenEndpoint = draft.tokenEndpoint;
  if (Number(draft.requestRate) !== settings.requestRate) patch.requestRate = Number(draft.requestRate);
  if (Number(draft.requestBurst) !== settings.requestBurst) patch.requestBurst = Number(draft.requestBurst);
  if (draft.clientSecret !== '') patch.clientSecret = draft.clientSecret;
  if (Number(draft.webhookPort) !== settings.webhookPort) patch.webhookPort = Number(draft.webhookPort);
  const switched = NOTIFICATION_KINDS.filter(
    (kind) => draft.notifications[kind] !== settings.notifications[kind],
  );
  if (switched.length > 0) {
    patch.notifications = Object.fromEntries(switched.map((kind) => [kind, draft.notifications[kind]]));
  }
  if (draft.sandboxProfile !== (settings.sandboxProfile ?? 'interface'))
    patch.sandboxProfile = draft.sandboxProfile;
  return patch;
}
