import { CircleCheck, CircleX, PlugZap } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { ConnectionTest, SettingsPatch, SettingsView } from '#contract/settings.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { Field } from '#renderer/ui/Field.tsx';
import { Select } from '#renderer/ui/Select.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { AgeingTargetsSection } from './AgeingTargetsSection.tsx';
import { DiagnosticsSection } from './DiagnosticsSection.tsx';
import { SandboxProfileField } from './SandboxProfileField.tsx';
import { useSettingsStore } from './settings-store.ts';
import { TeamSection } from './TeamSection.tsx';
import { UpdatesSection } from './UpdatesSection.tsx';

const PROTECTION_TEXT: Record<SettingsView['secretProtection'], string> = {
  'os-keychain': 'Secrets are encrypted with your operating system’s keychain.',
  'file-permissions':
    'Browser mode: secrets are encrypted with a key file that only your user account can read. That is file permissions only — use the desktop app for keychain protection.',
  'memory-only':
    'No keychain is available, so secrets are kept in memory only and are not saved: you will enter the client secret again after a restart.',
  passphrase:
    'This computer has no keyring Vetted can use, so your secrets are sealed with your passphrase. Vetted asks for it each time it starts.',
};

interface Draft {
  serviceMode: SettingsView['serviceMode'];
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookPort: string;
  publicWebhookUrl: string;
  notifications: boolean;
  sandboxProfile: NonNullable<SettingsView['sandboxProfile']>;
  tokenEndpoint: SettingsView['tokenEndpoint'];
  caBundlePath: string;
  requestRate: string;
  requestBurst: string;
}

/** The service account's network and pace: for corporate networks and large accounts. */
const NETWORK_FIELDS = [
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

const TOKEN_ENDPOINT_TEXT: Record<SettingsView['tokenEndpoint'], string> = {
  automatic: 'Automatic (recommended)',
  real: 'POST /token, form body with HTTP Basic (today’s service)',
  document: 'POST /oauth/v2/token, JSON body (interface document)',
};

const draftOf = (settings: SettingsView): Draft => ({
  serviceMode: settings.serviceMode,
  baseUrl: settings.baseUrl ?? '',
  clientId: settings.clientId ?? '',
  clientSecret: '',
  webhookPort: String(settings.webhookPort),
  publicWebhookUrl: settings.publicWebhookUrl ?? '',
  notifications: settings.notifications,
  sandboxProfile: settings.sandboxProfile ?? 'interface',
  tokenEndpoint: settings.tokenEndpoint,
  caBundlePath: settings.caBundlePath ?? '',
  requestRate: String(settings.requestRate),
  requestBurst: String(settings.requestBurst),
});

/** Only what changed is sent; an emptied field is cleared; the secret only when typed. */
function patchOf(draft: Draft, settings: SettingsView): SettingsPatch {
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
  if (draft.notifications !== settings.notifications) patch.notifications = draft.notifications;
  if (draft.sandboxProfile !== (settings.sandboxProfile ?? 'interface'))
    patch.sandboxProfile = draft.sandboxProfile;
  return patch;
}

export function SettingsScreen({ lock }: { lock: ReactNode }) {
  const { settings, load, save, saving, testing, testConnection, fieldErrors, message, test } =
    useSettingsStore();
  const [draft, setDraft] = useState<Draft | null>(null);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (settings) setDraft(draftOf(settings));
  }, [settings]);

  if (!settings || !draft) return <p>Loading settings…</p>;
  const change = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    await save(patchOf(draft, settings));
  };

  return (
    <section aria-labelledby="settings-title" className="settings">
      <header className="screen-header">
        <h2 id="settings-title">Settings</h2>
      </header>
      {settings.problem && <p role="alert">{settings.problem}</p>}
      <form onSubmit={onSubmit} noValidate>
        <fieldset>
          <legend>Service</legend>
          <label>
            <input
              type="radio"
              name="serviceMode"
              checked={draft.serviceMode === 'sandbox'}
              onChange={() => change('serviceMode', 'sandbox')}
            />
            Built-in sandbox (no real customers)
          </label>
          {draft.serviceMode === 'sandbox' && (
            <SandboxProfileField
              value={draft.sandboxProfile}
              error={fieldErrors.sandboxProfile}
              onChange={(v) => change('sandboxProfile', v)}
            />
          )}
          <label>
            <input
              type="radio"
              name="serviceMode"
              checked={draft.serviceMode === 'custom'}
              onChange={() => change('serviceMode', 'custom')}
            />
            My service account
          </label>
          {draft.serviceMode === 'custom' && (
            <>
              <TextField
                label="Base URL"
                name="baseUrl"
                value={draft.baseUrl}
                error={fieldErrors.baseUrl}
                placeholder="https://api.example.com"
                onChange={(v) => change('baseUrl', v)}
              />
              <TextField
                label="Client ID"
                name="clientId"
                value={draft.clientId}
                error={fieldErrors.clientId}
                onChange={(v) => change('clientId', v)}
              />
              <TextField
                label="Client secret"
                name="clientSecret"
                type="password"
                value={draft.clientSecret}
                error={fieldErrors.clientSecret}
                hint={
                  settings.hasClientSecret
                    ? 'A secret is stored. Type a new one to replace it.'
                    : 'No secret is stored yet.'
                }
                onChange={(v) => change('clientSecret', v)}
              />
              <Field
                label="Token endpoint"
                error={fieldErrors.tokenEndpoint}
                hint="Automatic tries today’s form, falls back on the other, and remembers what works for this account."
              >
                {(control) => (
                  <Select
                    {...control}
                    name="tokenEndpoint"
                    value={draft.tokenEndpoint}
                    onChange={(e) => change('tokenEndpoint', e.target.value as Draft['tokenEndpoint'])}
                  >
                    {Object.entries(TOKEN_ENDPOINT_TEXT).map(([value, text]) => (
                      <option key={value} value={value}>
                        {text}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              {NETWORK_FIELDS.map((field) => (
                <TextField
                  key={field.name}
                  {...field}
                  value={draft[field.name]}
                  error={fieldErrors[field.name]}
                  onChange={(v) => change(field.name, v)}
                />
              ))}
            </>
          )}
          <p className="hint">{PROTECTION_TEXT[settings.secretProtection]}</p>
        </fieldset>
        <fieldset>
          <legend>Webhooks</legend>
          <TextField
            label="Listener port"
            name="webhookPort"
            inputMode="numeric"
            value={draft.webhookPort}
            error={fieldErrors.webhookPort}
            onChange={(v) => change('webhookPort', v)}
            hint="Vetted listens on 127.0.0.1 at this port; point your tunnel here."
          />
          <TextField
            label="Public webhook URL"
            name="publicWebhookUrl"
            value={draft.publicWebhookUrl}
            error={fieldErrors.publicWebhookUrl}
            placeholder="https://your-tunnel.example.com/webhooks"
            onChange={(v) => change('publicWebhookUrl', v)}
            hint="The https address of your tunnel."
          />
        </fieldset>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.notifications}
            onChange={(e) => change('notifications', e.target.checked)}
          />
          Notify me when a customer’s status changes
        </label>
        <div className="actions">
          <Button type="submit" weight="primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </Button>
          <Button icon={PlugZap} onClick={() => void testConnection()} disabled={testing}>
            {testing ? 'Testing…' : 'Test connection'}
          </Button>
        </div>
        {message && <p role={message.kind === 'error' ? 'alert' : 'status'}>{message.text}</p>}
        {test && <ConnectionTestResult test={test} />}
      </form>
      <TeamSection />
      {lock}
      <AgeingTargetsSection />
      <UpdatesSection />
      <DiagnosticsSection />
    </section>
  );
}

function ConnectionTestResult({ test }: { test: ConnectionTest }) {
  if (!test.ok) {
    return (
      <div role="alert" className="test-result notice notice-danger">
        <CircleX aria-hidden="true" className="notice-icon" />
        <p>Connection failed: {test.message}</p>
      </div>
    );
  }
  return (
    <div role="status" className="test-result notice notice-success">
      <CircleCheck aria-hidden="true" className="notice-icon" />
      <p>
        Connected. Token valid until <time dateTime={test.expiresAt}>{formatDateTime(test.expiresAt)}</time>,
        with scope: {test.scope.join(', ')}.
      </p>
    </div>
  );
}
