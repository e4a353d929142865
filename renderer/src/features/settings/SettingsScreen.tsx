import { CircleCheck, CircleX, PlugZap } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { ConnectionTest } from '#contract/settings.ts';
import { Button } from '#renderer/ui/Button.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { AgeingTargetsSection } from './AgeingTargetsSection.tsx';
import { DiagnosticsSection } from './DiagnosticsSection.tsx';
import { NotificationsFieldset } from './NotificationsFieldset.tsx';
import { ServiceFieldset, WebhooksFieldset } from './ServiceFieldset.tsx';
import { type Draft, draftOf, patchOf } from './settings-draft.ts';
import { useSettingsStore } from './settings-store.ts';
import { TeamSection } from './TeamSection.tsx';
import { UpdatesSection } from './UpdatesSection.tsx';

/** `lock` and `myWork`: the sections of other features (the desk lock's, the reviewer's trends). */
export function SettingsScreen({ lock, myWork }: { lock: ReactNode; myWork: ReactNode }) {
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
        <ServiceFieldset draft={draft} change={change} settings={settings} fieldErrors={fieldErrors} />
        <WebhooksFieldset draft={draft} change={change} fieldErrors={fieldErrors} />
        <NotificationsFieldset draft={draft} change={change} />
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
      {myWork}
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
