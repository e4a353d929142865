import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Approval } from '#contract/approvals.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { approvalNotices } from '#main/features/approvals/notices.ts';
import type { StoredApproval } from '#main/features/team-interfaces/approvals.ts';
import type { NoticeKind } from '#main/ground/notifier.ts';

const CUSTOMER = randomUUID();

function approval(change: Partial<Approval> = {}): Approval {
  return {
    id: randomUUID(),
    kind: 'retry',
    customerId: CUSTOMER,
    maker: 'dana',
    mine: false,
    requestedAt: '2026-03-01T09:00:00.000Z',
    expiresAt: '2026-03-02T09:00:00.000Z',
    state: 'pending',
    checker: null,
    decidedAt: null,
    note: null,
    outcome: null,
    canDecide: true,
    ...change,
  };
}

function rig(openAtStart: StoredApproval[] = []) {
  const told: { kind: NoticeKind; notice: StatusNotice }[] = [];
  const notify = approvalNotices({
    approvals: { open: async () => openAtStart },
    journal: {
      customers: { get: async (id: string) => (id === CUSTOMER ? { name: 'Ada Lovelace' } : undefined) },
    } as unknown as Pick<Journal, 'customers'>,
    notifier: {
      tell: (kind, notice) => {
        told.push({ kind, notice });
        return 'desktop';
      },
    },
  });
  return { notify, told };
}

describe('four eyes, as notifications', () => {
  it('tells a lead once that a request waits for them, naming the maker and the customer', async () => {
    const { notify, told } = rig();
    const waiting = approval();
    await notify(waiting);
    await notify(waiting);
    expect(told).toEqual([
      {
        kind: 'approvalWaiting',
        notice: {
          customerId: CUSTOMER,
          status: 'approval',
          title: 'Approval waiting for you',
          body: 'dana asks you to approve a one-time retry for Ada Lovelace.',
        },
      },
    ]);
  });

  it('says nothing to who cannot decide it: the maker, or a reviewer', async () => {
    const { notify, told } = rig();
    await notify(approval({ mine: true, canDecide: false }));
    await notify(approval({ canDecide: false }));
    expect(told).toEqual([]);
  });

  it('tells the maker once that their request was decided (approved then sent is one decision)', async () => {
    const { notify, told } = rig();
    const mine = approval({ mine: true, canDecide: false, checker: 'lee' });
    await notify({ ...mine, state: 'approved' });
    await notify({ ...mine, state: 'sent' });
    const rejected = approval({ mine: true, canDecide: false, checker: 'lee', state: 'rejected' });
    await notify(rejected);
    expect(told.map(({ kind, notice }) => [kind, notice.title, notice.body])).toEqual([
      ['approvalDecided', 'Request approved', 'lee approved your one-time retry for Ada Lovelace.'],
      ['approvalDecided', 'Request rejected', 'lee rejected your one-time retry for Ada Lovelace.'],
    ]);
  });

  it('what was already so when the desk started is not news; what changes after is', async () => {
    const waiting = approval();
    const decided = approval({ mine: true, canDecide: false, checker: 'lee', state: 'approved' });
    const asked = approval({ mine: true, canDecide: false });
    const { notify, told } = rig([waiting, decided, asked] as StoredApproval[]);
    await notify(waiting);
    await notify({ ...decided, state: 'sent' });
    expect(told).toEqual([]);
    await notify({ ...asked, state: 'rejected', checker: 'lee' });
    expect(told.map(({ kind }) => kind)).toEqual(['approvalDecided']);
  });

  it('an export with names has no case to open: the queue shows it, no notification', async () => {
    const { notify, told } = rig();
    await notify(approval({ kind: 'exportNames', customerId: null }));
    expect(told).toEqual([]);
  });
});
