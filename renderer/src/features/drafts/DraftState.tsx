import type { Ref } from 'react';
import type { DraftStatus } from '#contract/drafts.ts';
import { STATE_LABELS, stateMeaning, stepsOf } from '#renderer/shared/case/draft-states.ts';
import { formatDateTime } from '#renderer/ui/time.tsx';
import type { SaveState } from './autosave.ts';

function saveText(state: SaveState): string {
  switch (state.kind) {
    case 'unsaved':
      return 'Not saved yet: Vetted saves the draft as soon as you type.';
    case 'pending':
      return 'Changes not saved yet…';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return `All changes saved (${new Date(state.at).toLocaleTimeString()}).`;
    case 'failed':
      return `Not saved: ${state.message}`;
  }
}

interface DraftStateProps {
  /** Null for a new form that is not a draft yet. */
  status: DraftStatus | null;
  saveState: SaveState;
  /** Focus comes here when the draft leaves the form's hands (queued): its buttons are gone. */
  ref?: Ref<HTMLElement>;
}

/** Where the draft is on its way to becoming a customer, and whether what was typed is saved. */
export function DraftState({ status, saveState, ref }: DraftStateProps) {
  const state = status?.state ?? 'draft';
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className="draft-state"
      aria-labelledby="draft-state-title"
      data-state={state}
    >
      <h3 id="draft-state-title">State</h3>
      <ol className="draft-steps">
        {stepsOf(state).map((step) => (
          <li key={step.key} aria-current={step.current ? 'step' : undefined}>
            {step.label}
          </li>
        ))}
      </ol>
      <p className="draft-state-text" aria-live="polite">
        <strong>{STATE_LABELS[state]}</strong> — {stateMeaning(status ?? { state, problem: null })}
        {status?.state === 'queued' && status.nextAttemptAt && (
          <>
            {' '}
            Next attempt <time dateTime={status.nextAttemptAt}>{formatDateTime(status.nextAttemptAt)}</time>.
          </>
        )}
      </p>
      <p className="draft-saved hint" aria-live="polite">
        {saveText(saveState)}
      </p>
    </section>
  );
}
