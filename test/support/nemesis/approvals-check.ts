// Four eyes, from the audit chain and the store: every approval asked for once, decided at most once (approved
// or rejected, never both, never twice), acted on at most once (its one `approval.sent`), and only once
// approved; what the desks were told (an approval, a decision, an export collected) is in the chain; no
// export was handed to its maker twice. Each approval entry's detail starts with the approval's id.
import type { AuditLine, FinalState, Op } from './history.ts';

export interface ApprovalsCheck {
  violations: string[];
  lost: number;
  duplicated: number;
}

const idOf = (entry: AuditLine) => /^([0-9a-f-]{36}):/.exec(entry.detail ?? '')?.[1];

export function checkApprovals(ops: readonly Op[], final: FinalState): ApprovalsCheck {
  const violations: string[] = [];
  let lost = 0;
  let duplicated = 0;
  const entriesOf = new Map<string, AuditLine[]>();
  for (const entry of final.audit.entries) {
    const id = entry.action.startsWith('approval.') ? idOf(entry) : undefined;
    if (id) entriesOf.set(id, [...(entriesOf.get(id) ?? []), entry]);
  }
  for (const [id, entries] of entriesOf) {
    const count = (action: string) => entries.filter((e) => e.action === action).length;
    const decided = count('approval.approve') + count('approval.reject');
    if (count('approval.request') !== 1)
      violations.push(`approval ${id}: asked for ${count('approval.request')} times`);
    if (decided > 1) {
      duplicated++;
      violations.push(`approval ${id}: decided ${decided} times`);
    }
    if (count('approval.sent') > 1) {
      duplicated++;
      violations.push(`approval ${id}: acted on ${count('approval.sent')} times`);
    }
    const sent = entries.find((e) => e.action === 'approval.sent');
    const approved = entries.find((e) => e.action === 'approval.approve');
    if (sent && (!approved || approved.seq > sent.seq))
      violations.push(`approval ${id}: acted on (entry ${sent.seq}) without an approval before it`);
  }
  const stored = new Map(final.approvals.map((a) => [a.id, a]));
  for (const approval of final.approvals) {
    const entries = entriesOf.get(approval.id) ?? [];
    const last = entries.at(-1)?.action;
    const expected = {
      'approval.request': 'pending',
      'approval.approve': 'approved',
      'approval.sent': 'sent',
    }[last ?? ''];
    if (expected && expected !== approval.state)
      violations.push(`approval ${approval.id}: the store says ${approval.state}, its last entry ${last}`);
  }
  const has = (action: string, id: string, actor?: string) =>
    (entriesOf.get(id) ?? []).some((e) => e.action === action && (actor === undefined || e.actor === actor));
  const collected = new Map<string, number>();
  for (const op of ops) {
    if (op.outcome !== 'ok') continue;
    const missing = (what: string) => {
      lost++;
      violations.push(`${op.id}: ${op.kind} of approval ${op.key || op.ref} acknowledged, but ${what}`);
    };
    if (
      op.kind === 'requestExport' &&
      op.ref &&
      !(stored.has(op.ref) && has('approval.request', op.ref, op.desk))
    )
      missing('it is not in the store with its approval.request entry');
    if (op.kind === 'approve' && !has('approval.approve', op.key, op.desk))
      missing('no approval.approve entry');
    if (op.kind === 'collect') {
      collected.set(op.key, (collected.get(op.key) ?? 0) + 1);
      if (!has('approval.sent', op.key)) missing('no approval.sent entry');
    }
  }
  for (const [id, times] of collected) {
    if (times > 1) {
      duplicated++;
      violations.push(`approval ${id}: its export was handed to its maker ${times} times`);
    }
  }
  violations.push(...makersWithinBounds(ops, final));
  return { violations, lost, duplicated };
}

/** Each maker's approvals in the store: at least those acknowledged, at most those plus the unanswered. */
function makersWithinBounds(ops: readonly Op[], final: FinalState): string[] {
  const violations: string[] = [];
  const makers = new Set(ops.filter((op) => op.kind === 'requestExport').map((op) => op.desk));
  for (const maker of makers) {
    const asked = ops.filter((op) => op.kind === 'requestExport' && op.desk === maker);
    const ok = asked.filter((op) => op.outcome === 'ok').length;
    const maybe = asked.filter((op) => op.outcome === 'unknown').length;
    const inStore = final.approvals.filter((a) => a.maker === maker).length;
    if (inStore < ok || inStore > ok + maybe)
      violations.push(
        `${maker}: ${inStore} approvals in the store, ${ok} acknowledged and ${maybe} unanswered`,
      );
  }
  return violations;
}
