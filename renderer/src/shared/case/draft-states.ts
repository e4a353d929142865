import type { DraftState, DraftStatus, OutboxStatus } from '#contract/drafts.ts';

/**
 * A draft's state in a word or two: the one name it has on every screen (the form, the outbox, the
 * queue's Drafts section).
 */
export const STATE_LABELS: Record<DraftState, string> = {
  draft: 'Draft',
  queued: 'Queued',
  sending: 'Sending',
  created: 'Created',
  rejected: 'Needs correction',
  attention: 'Needs attention',
};

/** A state as the queue's rows carry it (a string): a state Vetted does not know is shown as it is. */
export const stateLabel = (state: string): string => STATE_LABELS[state as DraftState] ?? state;

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

/** "1 draft", "2 drafts". */
export const count = (n: number, noun: string): string => (n === 1 ? `1 ${noun}` : `${n} ${noun}s`);

/** How many drafts wait where, as a sentence: "2 drafts, 1 queued, 1 needs correction". */
export function outboxSummary(counts: OutboxStatus['counts']): string {
  const parts = [
    counts.draft > 0 ? count(counts.draft, 'draft') : null,
    counts.queued > 0 ? `${counts.queued} queued` : null,
    counts.sending > 0 ? `${counts.sending} sending` : null,
    counts.rejected > 0 ? `${counts.rejected} ${counts.rejected === 1 ? 'needs' : 'need'} correction` : null,
    counts.attention > 0
      ? `${counts.attention} ${counts.attention === 1 ? 'needs' : 'need'} attention`
      : null,
  ].filter(Boolean);
  return parts.length === 0 ? 'No draft waits to be sent.' : `Waiting: ${parts.join(', ')}.`;
}

/** Why "Submit all" has nothing to do, or null when some draft can be submitted. */
export function submitAllUnavailable(counts: OutboxStatus['counts']): string | null {
  if (counts.draft + counts.rejected > 0) return null;
  const onTheirWay = counts.queued + counts.sending;
  if (onTheirWay > 0) {
    return `Nothing left to submit: ${count(onTheirWay, 'draft')} ${onTheirWay === 1 ? 'is' : 'are'} on the way already.`;
  }
  return 'No draft to submit: a new customer’s form becomes a draft as you type.';
}

/**
 * The one banner that says the service cannot be reached, shown where drafts wait for it (the outbox
 * panel); the draft's own state and the progress bar say only that they wait.
 */
export const SERVICE_UNREACHABLE =
  'The service cannot be reached. Queued drafts wait, and Vetted sends them by itself as soon as it answers again.';
