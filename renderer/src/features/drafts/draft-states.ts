import type { DraftState, DraftStatus } from '../../../../contract/drafts.ts';

/** A draft's state in a word or two, as the queue's Drafts section and the draft itself show it. */
export const STATE_LABELS: Record<DraftState, string> = {
  draft: 'Draft',
  queued: 'Queued',
  sending: 'Sending',
  created: 'Created',
  rejected: 'Rejected',
  attention: 'Needs attention',
};

/** What the state means for the reviewer, when the service has given no reason of its own. */
const STATE_MEANING: Record<DraftState, string> = {
  draft: 'Not sent yet. Vetted saves it as you type.',
  queued: 'Waiting in the outbox to be sent to the service.',
  sending: 'Being sent to the service now.',
  created: 'The service created this customer.',
  rejected: 'The service rejected some fields: correct them and submit again.',
  attention: 'The service refused this draft for a reason the form cannot fix.',
};

export function stateMeaning(status: Pick<DraftStatus, 'state' | 'problem'>): string {
  return status.problem ?? STATE_MEANING[status.state];
}

/** The path every draft takes; the last step is where it ended up. */
export function stepsOf(state: DraftState): { key: string; label: string; current: boolean }[] {
  const ending: DraftState = state === 'rejected' || state === 'attention' ? state : 'created';
  return (['draft', 'queued', 'sending', ending] as const).map((step) => ({
    key: step,
    label: STATE_LABELS[step],
    current: step === state,
  }));
}
