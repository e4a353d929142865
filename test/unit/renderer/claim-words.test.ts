// How claims are said: in the queue's row, in the case's header, in the sections' counts; and the case's
// actions while another reviewer holds it.
import { describe, expect, it } from 'vitest';
import type { Claim, ClaimCounts } from '#contract/claims.ts';
import {
  claimOrigin,
  claimWords,
  holderWords,
  tallyOf,
  withClaim,
} from '#renderer/shared/team/claim-words.ts';
import { customerDetail } from './fixtures.ts';

const since = '2025-06-01T10:42:00.000Z';
const claim = (patch: Partial<Claim> = {}): Claim => ({
  customerId: 'c-1',
  holder: 'ana',
  mine: false,
  since,
  how: 'take',
  by: 'ana',
  note: null,
  ...patch,
});

describe('claim words', () => {
  it('names the holder, or says it is you', () => {
    expect(holderWords('ana', 'lee')).toBe('ana has this');
    expect(holderWords('lee', 'lee')).toBe('You have this');
    expect(claimWords(null, Date.parse(since))).toBe('Nobody has this case yet.');
    expect(claimWords(claim(), Date.parse(since) + 60_000)).toMatch(/^ana has this since \d{1,2}:42/);
    expect(claimWords(claim({ mine: true }), Date.parse(since))).toMatch(/^You have this since/);
    // Another day: the day too.
    expect(claimWords(claim(), Date.parse(since) + 3 * 86_400_000)).toMatch(/^ana has this since Jun 1/);
  });

  it('says who gave the case, and why', () => {
    expect(claimOrigin(claim())).toBeNull();
    expect(claimOrigin(claim({ how: 'reassign', by: 'lee', note: 'Ana knows them.' }))).toBe(
      'Reassigned by lee: Ana knows them.',
    );
    expect(claimOrigin(claim({ how: 'takeOver', holder: 'lee', by: 'lee' }))).toBeNull();
  });

  it('refuses retry and upload in words while another reviewer holds the case, not while you do', () => {
    const customer = customerDetail('c-1', 'retry');
    const theirs = withClaim(customer, claim());
    expect(theirs.actions.retry).toEqual({
      allowed: false,
      reason: 'Only ana can change this case on the service while they hold it.',
    });
    expect(theirs.actions.upload.allowed).toBe(false);
    expect(withClaim(customer, claim({ mine: true }))).toBe(customer);
    expect(withClaim(customer, null)).toBe(customer);
    expect(withClaim(customer, undefined)).toBe(customer);
  });

  it('counts a reviewer’s held cases and nobody’s waiting ones, with their overdue', () => {
    const zero = { retry: 0, document: 0, review: 0 };
    const counts: ClaimCounts = {
      holders: [
        {
          holder: null,
          mine: false,
          waiting: { retry: 3, document: 1, review: 0 },
          overdue: { ...zero, retry: 2 },
          held: 0,
        },
        {
          holder: 'ana',
          mine: false,
          waiting: { ...zero, retry: 1 },
          overdue: { ...zero, retry: 1 },
          held: 4,
        },
        { holder: 'lee', mine: true, waiting: zero, overdue: zero, held: 2 },
      ],
      targets: { retry: 24, document: 48, review: 72 },
      at: since,
    };
    expect(tallyOf(counts, null)).toEqual({ count: 4, overdue: 2 });
    expect(tallyOf(counts, 'ana')).toEqual({ count: 4, overdue: 1 });
    expect(tallyOf(counts, 'mine')).toEqual({ count: 2, overdue: 0 });
    expect(tallyOf(counts, 'ben')).toEqual({ count: 0, overdue: 0 });
    expect(tallyOf(null, 'mine')).toEqual({ count: 0, overdue: 0 });
  });
});
