import { useEffect, useRef } from 'react';
import type { RetryOutcome as Outcome, RetryWaiting } from '#contract/drafts.ts';
import { statusGuidance } from '#contract/statuses.ts';

const MEANING: Record<string, string> = {
  verified: 'The service verified the customer with the corrected details.',
  document: 'The service now asks for an identity document: upload one from the customer’s page.',
  suspended: 'The service suspended the customer. Nothing more can be sent for verification.',
};

/** What the service made of the retry, said at once to whoever is looking or listening. */
export function RetryOutcome({ outcome, onClose }: { outcome: Outcome | RetryWaiting; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const waiting = 'waiting' in outcome;
  return (
    <div ref={ref} tabIndex={-1} className="retry-outcome">
      {waiting ? (
        <>
          <p role="status">Waiting for approval. Nothing has been sent yet.</p>
          <p>
            Your team asks a second pair of eyes for a retry: a lead other than you approves it, and only then
            does it leave, once. The case’s Four eyes panel follows it; you can withdraw it there.
          </p>
        </>
      ) : (
        <>
          <p role="status">
            Retry sent. The customer is now <strong className="retry-status">{outcome.status}</strong>.
          </p>
          <p>
            {Object.hasOwn(MEANING, outcome.status)
              ? MEANING[outcome.status]
              : statusGuidance(outcome.status)}
          </p>
          <p className="hint">The one retry for this customer is used: Vetted will not send another.</p>
        </>
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </div>
  );
}
