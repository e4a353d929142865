// The nemesis run's history checker on small crafted histories (#37): a consistent history passes, and each
// invariant, broken on purpose, is caught and named.
import { describe, expect, it } from 'vitest';
import { checkHistory, type Invariant } from '../support/nemesis/checker.ts';
import {
  type AuditLine,
  crashWords,
  type FinalState,
  noteText,
  type Op,
} from '../support/nemesis/history.ts';

const ANA = 'ana';
const BO = 'bo';
const CASE = 'c1';
const APPROVAL = '11111111-2222-4333-8444-555555555555';

const op = (o: Partial<Op> & Pick<Op, 'id' | 'kind' | 'key'>): Op => ({
  desk: ANA,
  invokedAt: 0,
  completedAt: 1,
  outcome: 'ok',
  ...o,
});

/** Ana submits a draft, writes a note, takes and releases a case, asks for an export Bo approves; she takes it. */
function consistent(): { ops: Op[]; final: FinalState } {
  const ops: Op[] = [
    op({ id: 'a-1', kind: 'draft', key: 'd1@example.com', ref: 'draft-1' }),
    op({ id: 'a-2', kind: 'note', key: noteText('a-2'), ref: CASE }),
    op({ id: 'a-3', kind: 'take', key: CASE, ref: CASE }),
    op({ id: 'a-4', kind: 'release', key: CASE, ref: CASE }),
    op({ id: 'b-1', kind: 'take', key: CASE, ref: CASE, desk: BO }),
    op({ id: 'a-5', kind: 'requestExport', key: APPROVAL, ref: APPROVAL }),
    op({ id: 'b-2', kind: 'approve', key: APPROVAL, desk: BO }),
    op({ id: 'a-6', kind: 'collect', key: APPROVAL }),
  ];
  const entries: AuditLine[] = [
    entry(1, ANA, 'note.add', CASE, 'note 10'),
    entry(2, ANA, 'claim.take', CASE, 'take'),
    entry(3, ANA, 'claim.release', CASE, null),
    entry(4, BO, 'claim.take', CASE, 'take'),
    entry(5, ANA, 'approval.request', null, `${APPROVAL}: exportNames`),
    entry(6, BO, 'approval.approve', null, `${APPROVAL}: exportNames`),
    entry(7, ANA, 'approval.sent', null, `${APPROVAL}: exportNames · exported`),
    entry(8, ANA, 'customer.create', 'cust-1', 'draft draft-1, sent by hub_1'),
  ];
  const image = {
    customers: [['cust-1', 12] as [string, number]],
    notes: [10],
    claims: [[CASE, BO, 11] as [string, string, number]],
  };
  return {
    ops,
    final: {
      crashes: [],
      serviceByEmail: { 'd1@example.com': 1 },
      outbox: [{ draftId: 'draft-1', state: 'created', customerId: 'cust-1' }],
      notes: [{ seq: 10, customerId: CASE, author: ANA, text: noteText('a-2') }],
      approvals: [{ id: APPROVAL, maker: ANA, state: 'sent', checker: BO }],
      claims: [{ customerId: CASE, holder: BO }],
      audit: { holds: true, entries },
      store: image,
      replicas: [
        { desk: ANA, image: structuredClone(image) },
        { desk: BO, image: structuredClone(image) },
      ],
    },
  };
}

function entry(
  seq: number,
  actor: string,
  action: string,
  customerId: string | null,
  detail: string | null,
): AuditLine {
  return { seq, actor, action, customerId, outcome: 'ok', detail };
}

/** The invariants a changed history breaks, and the words of its violations. */
function broken(change: (run: { ops: Op[]; final: FinalState }) => void) {
  const run = consistent();
  change(run);
  const verdict = checkHistory(run.ops, run.final);
  return {
    verdict,
    invariants: [...new Set(verdict.violations.map((v) => v.invariant))] as Invariant[],
    words: verdict.violations.map((v) => v.detail).join('\n'),
  };
}

const opNamed = (ops: Op[], id: string) => ops.find((o) => o.id === id)!;

describe('the history checker', () => {
  it('passes a consistent history, and counts what was acknowledged', () => {
    const { verdict } = broken(() => undefined);
    expect(verdict.violations).toEqual([]);
    expect(verdict).toMatchObject({ lost: 0, duplicated: 0, broken: 0, refused: 0, unanswered: 0 });
    expect(verdict.acknowledged).toMatchObject({
      draft: 1,
      note: 1,
      take: 2,
      release: 1,
      approve: 1,
      collect: 1,
    });
  });

  it('lets an unanswered operation have happened once or not at all, never twice', () => {
    const once = broken(({ ops }) => {
      opNamed(ops, 'a-1').outcome = 'unknown';
      opNamed(ops, 'a-2').outcome = 'unknown';
    });
    expect(once.verdict.violations).toEqual([]);
    expect(once.verdict.unanswered).toBe(2);
    const never = broken(({ ops, final }) => {
      ops.push(op({ id: 'a-9', kind: 'draft', key: 'd9@example.com', ref: 'draft-9', outcome: 'unknown' }));
      final.serviceByEmail['d9@example.com'] = 0;
    });
    expect(never.verdict.violations).toEqual([]);
    const twice = broken(({ ops, final }) => {
      ops.push(op({ id: 'a-9', kind: 'draft', key: 'd9@example.com', ref: 'draft-9', outcome: 'unknown' }));
      final.serviceByEmail['d9@example.com'] = 2;
    });
    expect(twice.invariants).toEqual(['drafts']);
    expect(twice.verdict.duplicated).toBe(1);
  });

  it('catches a crashed process', () => {
    expect(
      broken(({ final }) => final.crashes.push('desk_2 ended by itself (exit 1): ECONNRESET')).invariants,
    ).toEqual(['processes']);
  });

  it('catches a draft lost, created twice, created though refused, or not recorded', () => {
    const lost = broken(({ final }) => {
      final.serviceByEmail['d1@example.com'] = 0;
    });
    expect(lost.invariants).toEqual(['drafts']);
    expect(lost.verdict.lost).toBe(1);
    const twice = broken(({ final }) => {
      final.serviceByEmail['d1@example.com'] = 2;
    });
    expect(twice.verdict.duplicated).toBe(1);
    expect(twice.words).toContain('a-1 (draft, ok): its e-mail d1@example.com is on the service 2 times');
    const refused = broken(({ ops }) => {
      opNamed(ops, 'a-1').outcome = 'fail';
    });
    expect(refused.invariants).toEqual(['drafts']);
    const stuck = broken(({ final }) => {
      final.outbox[0]!.state = 'queued';
    });
    expect(stuck.words).toContain('its outbox row is queued');
    const unrecorded = broken(({ final }) => {
      final.audit.entries = final.audit.entries.filter((e) => e.action !== 'customer.create');
    });
    expect(unrecorded.words).toContain('has 0 customer.create entries');
  });

  it('catches a note lost, written twice, stamped wrongly, unrecorded, or written by nobody', () => {
    const note = (final: FinalState) => final.notes[0]!;
    expect(broken(({ final }) => final.notes.pop()).verdict.lost).toBe(1);
    expect(broken(({ final }) => final.notes.push({ ...note(final), seq: 11 })).verdict.duplicated).toBe(1);
    expect(
      broken(({ final }) => {
        note(final).author = BO;
      }).words,
    ).toContain('its note is stamped bo');
    expect(
      broken(({ final }) => {
        final.audit.entries = final.audit.entries.filter((e) => e.action !== 'note.add');
      }).words,
    ).toContain('note 10 has no note.add entry of ana');
    const phantom = broken(({ final }) => {
      final.notes.push({ seq: 20, customerId: CASE, author: BO, text: noteText('b-7') });
    });
    expect(phantom.invariants).toEqual(['notes']);
    expect(phantom.words).toContain('was written by no operation');
  });

  it('catches two holders of one case at once, and a claim the chain and the store disagree on', () => {
    const both = broken(({ final }) => {
      // Bo's take before Ana's release: both held the case between entries 3 and 4.
      const [release, take] = [final.audit.entries[2]!, final.audit.entries[3]!];
      [release.seq, take.seq] = [take.seq, release.seq];
    });
    expect(both.invariants).toContain('claims');
    expect(both.words).toContain('bo took it (entry 3) while ana held it');
    const disagree = broken(({ final }) => {
      final.claims[0]!.holder = ANA;
    });
    expect(disagree.words).toContain('the store says ana holds it, the audit chain says bo');
    const unrecorded = broken(({ final }) => {
      final.audit.entries = final.audit.entries.filter((e) => e.seq !== 4);
      final.claims[0]!.holder = null;
    });
    expect(unrecorded.words).toContain('b-1: take of c1 acknowledged, but no claim.take entry of bo');
  });

  it('catches an approval decided twice, acted on twice or unapproved, handed over twice, or unrecorded', () => {
    const approve = (final: FinalState) => final.audit.entries.find((e) => e.action === 'approval.approve')!;
    const sent = (final: FinalState) => final.audit.entries.find((e) => e.action === 'approval.sent')!;
    expect(
      broken(({ final }) =>
        final.audit.entries.push({ ...approve(final), seq: 9, action: 'approval.reject' }),
      ).words,
    ).toContain('decided 2 times');
    expect(broken(({ final }) => final.audit.entries.push({ ...sent(final), seq: 9 })).words).toContain(
      'acted on 2 times',
    );
    expect(
      broken(({ final }) => {
        approve(final).seq = 10;
      }).words,
    ).toContain('acted on (entry 7) without an approval before it');
    const handedTwice = broken(({ ops }) => ops.push(op({ id: 'a-7', kind: 'collect', key: APPROVAL })));
    expect(handedTwice.words).toContain('its export was handed to its maker 2 times');
    expect(handedTwice.verdict.duplicated).toBe(1);
    expect(
      broken(({ final }) => {
        final.audit.entries = final.audit.entries.filter((e) => e.action !== 'approval.approve');
      }).words,
    ).toContain('b-2: approve of approval');
    expect(
      broken(({ final }) => {
        final.approvals[0]!.state = 'approved';
      }).words,
    ).toContain('the store says approved, its last entry approval.sent');
    expect(broken(({ final }) => final.approvals.pop()).words).toContain(
      'ana: 0 approvals in the store, 1 acknowledged',
    );
  });

  it('catches an audit chain that does not hold', () => {
    const chain = broken(({ final }) => {
      final.audit = { ...final.audit, holds: false, problem: 'entry 5 was changed' };
    });
    expect(chain.invariants).toEqual(['audit']);
    expect(chain.words).toContain('entry 5 was changed');
  });

  it('catches a replica behind the store, ahead of it, or at another change', () => {
    const behind = broken(({ final }) => {
      final.replicas[1]!.image.notes = [];
    });
    expect(behind.invariants).toEqual(['replicas']);
    expect(behind.words).toContain("bo's replica differs from the store: note 10 missing");
    const stale = broken(({ final }) => {
      final.replicas[0]!.image.customers = [['cust-1', 9]];
    });
    expect(stale.words).toContain('customer cust-1@12 missing; customer cust-1@9 not in the store');
    const claim = broken(({ final }) => {
      final.replicas[0]!.image.claims = [[CASE, ANA, 11]];
    });
    expect(claim.words).toContain('claim c1|bo|11 missing');
  });

  it('names a crash by what the process threw, without its stack', () => {
    const stderr = [
      'node:events:505',
      "    throw er; // Unhandled 'error' event",
      '    ^',
      '',
      'Error: Connection terminated unexpectedly',
      '    at Connection.<anonymous> (/app/node_modules/pg/lib/client.js:132:73)',
      "Emitted 'error' event on Client instance at:",
      '    at Client._handleErrorEvent (/app/node_modules/pg/lib/client.js:422:10)',
      '',
      'Node.js v24.21.0',
    ].join('\n');
    expect(crashWords(stderr)).toBe(
      "node:events:505 | Error: Connection terminated unexpectedly | Emitted 'error' event on Client instance at:",
    );
  });
});
