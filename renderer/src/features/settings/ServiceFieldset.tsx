import type { SettingsView } from '#contract/settings.ts';
import { Field } from '#renderer/ui/Field.tsx';
import { Select } from '#renderer/ui/Select.tsx';
import { TextField } from '#renderer/ui/TextField.tsx';
import { SandboxProfileField } from './SandboxProfileField.tsx';
import { type Draft, NETWORK_FIELDS, TOKEN_ENDPOINT_TEXT } from './settings-draft.ts';

const PROTECTION_TEXT: Record<SettingsView['secretProtection'], string> = {
  'os-keychain': 'Secrets are encrypted with your operating system’s keychain.',
  'file-permissions':
    'Browser mode: secrets are encrypted with a key file that only your user account can read. That is file permissions only — use the desktop app for keychain protection.',
  'memory-only':
    'No keychain is available, so secrets are kept in memory only and are not saved: you will enter the client secret again after a restart.',
  passphrase:
    'This computer has no keyring Vetted can use, so your secrets are sealed with your passphrase. Vetted asks for it each time it starts.',
};

/** What a part of the settings form is given: the fields as typed, how to change one, and the refusals. */
export interface DraftFields {
  draft: Draft;
  change<K extends keyof Draft>(key: K, value: Draft[K]): void;
  fieldErrors: Record<string, string>;
}

/** Which service: the built-in sandbox (and its profile) or the reviewer's service account. */
export function ServiceFieldset({
  draft,
  change,
  settings,
  fieldErrors,
}: DraftFields & { settings: SettingsView }) {
  return (
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
        <AccountFields draft={draft} change={change} settings={settings} fieldErrors={fieldErrors} />
      )}
      <p className="hint">{PROTECTION_TEXT[settings.secretProtection]}</p>
    </fieldset>
  );
}

/** The service account: its address, client, secret, token endpoint, and network. */
function AccountFields({ draft, change, settings, fieldErrors }: DraftFields & { settings: SettingsView }) {
  return (
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
  );
}

/** Where the webhook listener listens, and the tunnel's public address. */
export function WebhooksFieldset({ draft, change, fieldErrors }: DraftFields) {
  return (
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
  );
}
