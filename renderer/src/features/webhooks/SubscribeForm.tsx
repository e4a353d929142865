import { type FormEvent, useId, useState } from 'react';
import type { WebhooksOverview } from '#contract/webhooks.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { useWebhooksStore } from './webhooks-store.ts';

/**
 * A new subscription. Main makes its secret, keeps it in the vault and never sends it here; an
 * empty URL means Vetted's own address (the listener on the sandbox, else the tunnel's public URL).
 */
export function SubscribeForm({ overview }: { overview: WebhooksOverview }) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const full =
    overview.subscriptions !== null && overview.subscriptions.length >= overview.max
      ? `The service allows at most ${overview.max} subscriptions per application, and all of them are in use. ` +
        'Delete one that is no longer needed (other programs of this account may use some), then subscribe.'
      : null;

  const subscribe = async (event?: FormEvent) => {
    event?.preventDefault();
    if (full || busy) return;
    setBusy(true);
    setError(null);
    const problem = await useWebhooksStore.getState().subscribe(url);
    setBusy(false);
    setError(problem);
    if (!problem) setUrl('');
  };

  return (
    <form className="webhooks-subscribe" onSubmit={(event) => void subscribe(event)} noValidate>
      <div className="field">
        <label htmlFor={id}>URL to deliver to</label>
        <input
          id={id}
          type="url"
          value={url}
          placeholder={overview.defaultUrl ?? 'https://vetted.example.com/webhooks'}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => setUrl(event.target.value)}
        />
        <small id={`${id}-hint`} className="hint">
          {overview.defaultUrl
            ? `Leave it empty for Vetted’s own address, ${overview.defaultUrl}. `
            : 'Set the public URL of your tunnel in Settings, or enter it here. '}
          The URL must start with https://; plain http:// only reaches this machine (localhost), which only
          the built-in sandbox can deliver to. Vetted makes a random secret for it and keeps it in its vault:
          it is never shown.
        </small>
        {error && (
          <small id={`${id}-error`} className="field-error" role="alert">
            {error}
          </small>
        )}
      </div>
      <ReasonButton unavailable={full} busy={busy} onClick={() => void subscribe()}>
        {busy ? 'Subscribing…' : 'Subscribe'}
      </ReasonButton>
    </form>
  );
}
