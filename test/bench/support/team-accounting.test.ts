import { describe, expect, it } from 'vitest';
import {
  accountChanges,
  type DeskUpdates,
  type LoggedChange,
  type Receipt,
} from '#bench/support/team-accounting.ts';

// The fifty-desk bench's accounting by the store's change (bench/support/team-accounting.ts), on hand-made
// receipts, store writes and desk pushes. Times are epoch ms; c1, c2 are customers, seqs the store's versions.
const receipt = (customerId: string, receivedAt: number): Receipt => ({ customerId, receivedAt });
const write = (customerId: string, seq: number, at: number): LoggedChange => ({ customerId, seq, at });
const desk = (name: string, ...updates: Array<[string, number, number]>): DeskUpdates => ({ name, updates });

describe('team bench accounting, by change', () => {
  it('counts two deliveries one refresh covered as seen, each from its own receipt', () => {
    // Both deliveries about c1 waited together; the hub's one refresh wrote version 7 after both.
    const account = accountChanges(
      [receipt('c1', 1_000), receipt('c1', 1_010)],
      [write('c1', 7, 1_050)],
      [desk('a', ['c1', 7, 1_100]), desk('b', ['c1', 7, 1_120])],
    );
    expect(account).toMatchObject({ missed: 0, twice: 0, pairs: 4, noChange: 0 });
    expect(account.latencies).toEqual([100, 120, 90, 110]);
    expect(account.first).toEqual([100, 90]);
    expect(account.last).toEqual([120, 110]);
  });

  it('takes a desk that caught up to a newer version as having seen the older change', () => {
    // Two refreshes (7, then 9); desk a read only the newest row and pushed 9 once.
    const account = accountChanges(
      [receipt('c1', 1_000), receipt('c1', 1_200)],
      [write('c1', 7, 1_050), write('c1', 9, 1_250)],
      [desk('a', ['c1', 9, 1_300])],
    );
    expect(account).toMatchObject({ missed: 0, twice: 0, pairs: 2 });
    expect(account.latencies).toEqual([300, 100]);
  });

  it('does not count a stale version pushed after the receipt', () => {
    // Version 5 predates the delivery; the desk pushes it (say, after its own claim moved the row) but
    // never the refresh's version 8.
    const account = accountChanges(
      [receipt('c1', 1_000)],
      [write('c1', 5, 900), write('c1', 8, 1_040)],
      [desk('a', ['c1', 5, 1_100]), desk('b', ['c1', 8, 1_090])],
    );
    expect(account).toMatchObject({ missed: 1, twice: 0, pairs: 2 });
    expect(account.byDesk.get('a')).toEqual({ missed: 1, twice: 0 });
    expect(account.byDesk.get('b')).toEqual({ missed: 0, twice: 0 });
    expect(account.first).toEqual([90]);
    expect(account.last).toEqual([Number.NaN]);
  });

  it('counts a desk that never pushed the customer as missed', () => {
    const account = accountChanges(
      [receipt('c1', 1_000), receipt('c2', 1_000)],
      [write('c1', 3, 1_010), write('c2', 4, 1_020)],
      [desk('a', ['c1', 3, 1_030]), desk('b', ['c1', 3, 1_035], ['c2', 4, 1_040])],
    );
    expect(account).toMatchObject({ missed: 1, twice: 0, pairs: 4 });
    expect(account.byDesk.get('a')).toEqual({ missed: 1, twice: 0 });
  });

  it('counts a version a desk pushed again once, however often, and only on that desk', () => {
    const account = accountChanges(
      [receipt('c1', 1_000), receipt('c2', 1_000)],
      [write('c1', 3, 1_010), write('c2', 4, 1_020)],
      [
        desk('a', ['c1', 3, 1_030], ['c1', 3, 1_060], ['c1', 3, 1_090], ['c2', 4, 1_040]),
        desk('b', ['c1', 3, 1_035], ['c2', 4, 1_045]),
      ],
    );
    expect(account).toMatchObject({ missed: 0, twice: 1, pairs: 4 });
    expect(account.byDesk.get('a')).toEqual({ missed: 0, twice: 1 });
    expect(account.byDesk.get('b')).toEqual({ missed: 0, twice: 0 });
    // The latency is to the first push.
    expect(account.latencies[0]).toBe(30);
  });

  it('counts a delivery the store wrote nothing after apart, not against the desks', () => {
    const account = accountChanges(
      [receipt('c1', 1_000), receipt('c2', 1_000)],
      [write('c1', 3, 1_010), write('c2', 2, 990)],
      [desk('a', ['c1', 3, 1_030], ['c2', 2, 995])],
    );
    expect(account).toMatchObject({ missed: 0, twice: 0, pairs: 1, noChange: 1 });
    expect(account.first).toEqual([30]);
  });

  it('leaves out versions a desk could not read (-1) from the repeats and the changes seen', () => {
    const account = accountChanges(
      [receipt('c1', 1_000)],
      [write('c1', 3, 1_010)],
      [desk('a', ['c1', -1, 1_020], ['c1', -1, 1_030])],
    );
    expect(account).toMatchObject({ missed: 1, twice: 0, pairs: 1 });
  });
});
