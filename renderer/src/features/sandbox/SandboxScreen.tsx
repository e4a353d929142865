import { useEffect, useId, useState } from 'react';
import { SANDBOX_FAULTS, type SandboxFault } from '#contract/sandbox-panel.ts';
import { ReasonButton } from '#renderer/ui/ReasonButton.tsx';
import { Select } from '#renderer/ui/Select.tsx';
import { formatDateTime } from '#renderer/ui/time.tsx';
import { useSandboxStore } from './sandbox-store.ts';

/** The built-in sandbox's own controls: its clock, injected faults, and how to reach it with curl. */
export function SandboxScreen() {
  const { panel, busy, done, problem, load, finishReviews } = useSandboxStore();
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="sandbox-screen" aria-labelledby="sandbox-title">
      <h2 id="sandbox-title">Sandbox</h2>
      <p>
        The built-in sandbox is a local copy of the service with no real customers. These controls act on it
        alone.
      </p>
      <p role="status" className="sandbox-done">
        {done}
      </p>
      {problem && <p role="alert">{problem}</p>}
      <section className="sandbox-section" aria-labelledby="sandbox-clock">
        <h3 id="sandbox-clock">Clock</h3>
        <p>
          The sandbox reviews an uploaded document a minute after it arrives, on its own clock
          {panel && <> (now {formatDateTime(panel.now)})</>}.
        </p>
        <ReasonButton unavailable={null} busy={busy !== null} onClick={() => void finishReviews()}>
          {busy === 'reviews' ? 'Finishing…' : 'Finish reviews now'}
        </ReasonButton>
      </section>
      <FaultControls />
      <section className="sandbox-section" aria-labelledby="sandbox-curl">
        <h3 id="sandbox-curl">Reach it with curl</h3>
        {panel ? (
          <>
            <dl className="facts">
              <dt>Base URL</dt>
              <dd>
                <code>{panel.baseUrl}</code>
              </dd>
              <dt>Client ID</dt>
              <dd>
                <code>{panel.clientId}</code>
              </dd>
            </dl>
            <p>Gets a token and lists the customers (the sandbox answers on this machine only):</p>
            <section aria-label="curl command">
              {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroller must take focus to scroll by keyboard. */}
              <pre className="code-block" tabIndex={0}>
                {panel.curl}
              </pre>
            </section>
          </>
        ) : (
          <p>Loading…</p>
        )}
      </section>
    </section>
  );
}

function FaultControls() {
  const id = useId();
  const { panel, busy, setFault } = useSandboxStore();
  const [kind, setKind] = useState<SandboxFault | ''>('');
  const active = panel?.fault ?? null;
  return (
    <section className="sandbox-section" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Faults</h3>
      <p>
        {active
          ? `Now: ${SANDBOX_FAULTS[active.kind]}, on ${Math.round(active.rate * 100)}% of the service’s requests.`
          : 'Now: none. Every request is answered as the service would.'}
      </p>
      <div className="sandbox-fault-row">
        <label htmlFor={`${id}-kind`}>Fault to inject</label>
        <Select
          id={`${id}-kind`}
          value={kind}
          onChange={(event) => setKind(event.target.value as SandboxFault | '')}
        >
          <option value="">Choose a fault…</option>
          {Object.entries(SANDBOX_FAULTS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
        <ReasonButton
          unavailable={kind === '' ? 'Choose a fault first.' : null}
          busy={busy !== null}
          onClick={() => kind && void setFault(kind)}
        >
          Inject
        </ReasonButton>
        <ReasonButton
          unavailable={active ? null : 'No fault is on.'}
          busy={busy !== null}
          onClick={() => void setFault(null)}
        >
          Clear faults
        </ReasonButton>
      </div>
    </section>
  );
}
