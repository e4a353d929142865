import { describe, expect, it } from 'vitest';
import type { OutboxStatus } from '#contract/drafts.ts';
import { DRAFT_STATES } from '#contract/drafts.ts';
import {
  outboxSummary,
  STATE_LABELS,
  stateLabel,
  submitAllUnavailable,
} from '#renderer/shared/case/draft-states.ts';

const counts = (some: Partial<OutboxStatus['counts']>): OutboxStatus['counts'] => ({
  draft: 0,
  queued: 0,
  sending: 0,
  created: 0,
  rejected: 0,
  attention: 0,
  ...some,
});

describe('draft wording', () => {
  it('has one name per state', () => {
    expect(DRAFT_STATES.map((state) => STATE_LABELS[state])).toEqual([
      'Draft',
      'Queued',
      'Sending',
      'Created',
      'Needs correction',
      'Needs attention',
    ]);
    expect(stateLabel('rejected')).toBe('Needs correction');
    expect(stateLabel('something-new')).toBe('something-new');
  });

  it('counts what waits, in grammatical English', () => {
    expect(outboxSummary(counts({}))).toBe('No draft waits to be sent.');
    expect(outboxSummary(counts({ draft: 1 }))).toBe('Waiting: 1 draft.');
    expect(outboxSummary(counts({ draft: 2, queued: 1, rejected: 1, created: 9 }))).toBe(
      'Waiting: 2 drafts, 1 queued, 1 needs correction.',
    );
    expect(outboxSummary(counts({ rejected: 2, attention: 1 }))).toBe(
      'Waiting: 2 need correction, 1 needs attention.',
    );
  });

  it('says why Submit all has nothing to do', () => {
    expect(submitAllUnavailable(counts({ draft: 1 }))).toBeNull();
    expect(submitAllUnavailable(counts({ rejected: 1 }))).toBeNull();
    expect(submitAllUnavailable(counts({ queued: 1 }))).toBe(
      'Nothing left to submit: 1 draft is on the way already.',
    );
    expect(submitAllUnavailable(counts({ queued: 1, sending: 2 }))).toBe(
      'Nothing left to submit: 3 drafts are on the way already.',
    );
    expect(submitAllUnavailable(counts({ created: 4, attention: 1 }))).toMatch(/^No draft to submit/);
  });
});
