import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from '#contract/case.ts';
import type { QueueRow } from '#contract/queue.ts';
import { availableActions } from '#contract/statuses.ts';
import { byDay } from '#renderer/features/customer/CaseTimeline.tsx';
import { nextStep } from '#renderer/features/customer/next-step.ts';
import { caseToOpen } from '#renderer/features/queue/use-open-on-start.ts';
import { statusLook } from '#renderer/shared/case/status-look.ts';
import { elapsedShort, elapsedSince } from '#renderer/ui/time.tsx';

const NOW = Date.parse('2026-11-27T14:30:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('times in a column', () => {
  it('say "4 min", "2 h", "3 d", and the same in words for a screen reader', () => {
    expect(elapsedShort(ago(30_000), NOW)).toBe('< 1 min');
    expect(elapsedShort(ago(4 * 60_000 + 59_000), NOW)).toBe('4 min');
    expect(elapsedShort(ago(2 * 3_600_000), NOW)).toBe('2 h');
    expect(elapsedShort(ago(3 * 86_400_000 + 5), NOW)).toBe('3 d');
    expect(elapsedShort(ago(-60_000), NOW)).toBe('< 1 min');
    expect(elapsedSince(ago(3 * 86_400_000), NOW)).toBe('3 days');
    expect(elapsedSince(ago(30_000), NOW)).toBe('under a minute');
  });
});

describe('status looks', () => {
  it('give every section a tone, an icon and words; an unknown status its own name, a draft its state', () => {
    expect(statusLook('retry', 'retry')).toMatchObject({ tone: 'warning', label: 'Needs retry' });
    expect(statusLook('verified', 'verified')).toMatchObject({ tone: 'success', label: 'Verified' });
    expect(statusLook('other', 'restricted')).toMatchObject({ tone: 'neutral', label: 'restricted' });
    expect(statusLook('drafts', 'rejected')).toMatchObject({ tone: 'danger', label: 'Needs correction' });
    // Retry and Verified never look alike: colour, icon and words all differ.
    const [retry, verified] = [statusLook('retry', 'retry'), statusLook('verified', 'verified')];
    expect(retry.icon).not.toBe(verified.icon);
  });
});

describe('the next step of a case', () => {
  const customer = (section: QueueRow['section'], status: string, gone = false) => ({
    section,
    gone,
    actions: availableActions(status, null),
  });

  it('is one primary action where the status asks for one, else what to wait for', () => {
    expect(nextStep(customer('retry', 'retry'))).toMatchObject({ primary: 'retry' });
    expect(nextStep(customer('document', 'document'))).toMatchObject({ primary: 'upload' });
    expect(nextStep(customer('review', 'document'))).toMatchObject({
      primary: null,
      title: 'Wait for the review',
    });
    expect(nextStep(customer('verified', 'verified'))).toMatchObject({ primary: null, tone: 'success' });
    expect(nextStep(customer('retry', 'retry', true))).toMatchObject({ primary: null, tone: 'danger' });
  });

  it('offers no primary action the service withholds', () => {
    const withheld = { section: 'retry' as const, gone: false, actions: availableActions('retry', ['self']) };
    expect(nextStep(withheld).primary).toBeNull();
  });

  it('of a case another reviewer holds: who, and what is left to this one (a note; ask for it, or take it over)', () => {
    const held = nextStep(customer('retry', 'retry'), { holder: 'alice', canTakeOver: false });
    expect(held).toMatchObject({
      title: 'Leave this case to alice, or ask for it',
      primary: 'note',
      detail:
        'Only alice can change this case on the service while they hold it. Write a note for them, or ask alice or a lead to hand it to you.',
    });
    expect(held.title).not.toContain('Send the corrected details');
    expect(held.detail).not.toMatch(/npm run|alice has this/);
    const lead = nextStep(customer('document', 'document'), { holder: 'alice', canTakeOver: true });
    expect(lead).toMatchObject({
      title: 'Leave this case to alice, or take it over',
      detail: expect.stringMatching(/Write a note for them, or take it over \(above\) if it cannot wait\.$/),
    });
    // A customer gone from the service says so first, whoever holds it.
    expect(nextStep(customer('retry', 'retry', true), { holder: 'alice', canTakeOver: false })).toMatchObject(
      {
        title: 'Gone from the service',
      },
    );
  });
});

describe('the timeline', () => {
  const entry = (key: string, at: string): TimelineEntry => ({
    key,
    kind: 'note',
    at,
    who: 'dana',
    title: 'Note',
    detail: null,
    eventId: null,
  });

  it('cuts entries, newest first, into the days they fall on', () => {
    const days = byDay([
      entry('a', '2026-11-27T12:30:00Z'),
      entry('b', '2026-11-27T11:00:00Z'),
      entry('c', '2026-11-25T12:00:00Z'),
    ]);
    expect(days.map((day) => day.entries.map((item) => item.key))).toEqual([['a', 'b'], ['c']]);
  });
});

describe('the case that opens on start', () => {
  const row = (id: string, section: QueueRow['section'] = 'retry'): QueueRow => ({
    id,
    name: id,
    email: `${id}@example.com`,
    status: section,
    section,
    statusSince: ago(0),
    gone: false,
    note: null,
  });
  const pages = (rows: QueueRow[]) => new Map([[0, { rows, generation: 1 }]]);

  it('is the last one looked at when the list holds it, else the first that is not a draft', () => {
    const held = pages([row('d1', 'drafts'), row('c1'), row('c2')]);
    expect(caseToOpen(held, 'c2')).toBe('c2');
    expect(caseToOpen(held, 'gone-elsewhere')).toBe('c1');
    expect(caseToOpen(held, null)).toBe('c1');
    expect(caseToOpen(pages([row('d1', 'drafts')]), null)).toBeNull();
    expect(caseToOpen(new Map(), null)).toBeNull();
  });
});
