// The history checker (#37): a pure function of what the desks were told (the history) and what the team
// holds once every fault is healed (the final state). Acknowledged operations happened exactly once;
// unanswered ones at most once; refused ones not at all; the audit chain holds and records every acknowledged
// action; no case had two holders at once; every approval was decided once and acted on once; every desk's
// replica equals the store. Each broken invariant is named, with the operation or row that breaks it.
import { checkApprovals } from './approvals-check.ts';
import { checkClaims } from './claims-check.ts';
import {
  type AuditLine,
  type FinalState,
  isNemesisNote,
  OP_KINDS,
  type Op,
  type OpKind,
  type ReplicaImage,
} from './history.ts';

export const INVARIANTS = [
  'processes',
  'drafts',
  'notes',
  'claims',
  'approvals',
  'audit',
  'replicas',
] as const;
export type Invariant = (typeof INVARIANTS)[number];

export interface Verdict {
  violations: Array<{ invariant: Invariant; detail: string }>;
  /** Operations acknowledged, refused and left unanswered, by kind. */
  acknowledged: Record<OpKind, number>;
  refused: number;
  unanswered: number;
  /** Acknowledged effects missing from the team. */
  lost: number;
  /** Effects the team holds more than once. */
  duplicated: number;
  /** Invariants with at least one violation. */
  broken: number;
}

interface Part {
  violations: string[];
  lost?: number;
  duplicated?: number;
}

export function checkHistory(ops: readonly Op[], final: FinalState): Verdict {
  const parts: Record<Invariant, Part> = {
    processes: { violations: final.crashes },
    drafts: checkDrafts(ops, final),
    notes: checkNotes(ops, final),
    claims: { violations: checkClaims(ops, final.audit.entries, final.claims) },
    approvals: checkApprovals(ops, final),
    audit: { violations: final.audit.holds ? [] : [`the audit chain does not hold: ${final.audit.problem}`] },
    replicas: { violations: checkReplicas(final) },
  };
  const acknowledged = Object.fromEntries(OP_KINDS.map((kind) => [kind, 0])) as Record<OpKind, number>;
  for (const op of ops) if (op.outcome === 'ok') acknowledged[op.kind]++;
  const violations = INVARIANTS.flatMap((invariant) =>
    parts[invariant].violations.map((detail) => ({ invariant, detail })),
  );
  const sum = (field: 'lost' | 'duplicated') => INVARIANTS.reduce((n, i) => n + (parts[i][field] ?? 0), 0);
  return {
    violations,
    acknowledged,
    refused: ops.filter((op) => op.outcome === 'fail').length,
    unanswered: ops.filter((op) => op.outcome === 'unknown').length,
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    broken: INVARIANTS.filter((i) => parts[i].violations.length > 0).length,
  };
}

/** How many times an effect may be found: exactly once acknowledged, at most once unanswered, never refused. */
function countViolation(op: Op, found: number, what: string, part: Required<Part>): void {
  const allowed = op.outcome === 'ok' ? [1] : op.outcome === 'unknown' ? [0, 1] : [0];
  if (allowed.includes(found)) return;
  if (found === 0) part.lost++;
  else if (found > 1) part.duplicated++;
  part.violations.push(`${op.id} (${op.kind}, ${op.outcome}): ${what} ${found} times`);
}

/** Each acknowledged draft: one customer on the service, its outbox row created, its customer.create entry. */
function checkDrafts(ops: readonly Op[], final: FinalState): Required<Part> {
  const part = { violations: [] as string[], lost: 0, duplicated: 0 };
  const rows = new Map(final.outbox.map((row) => [row.draftId, row]));
  for (const op of ops.filter((o) => o.kind === 'draft')) {
    countViolation(op, final.serviceByEmail[op.key] ?? 0, `its e-mail ${op.key} is on the service`, part);
    if (op.outcome !== 'ok') continue;
    const row = op.ref ? rows.get(op.ref) : undefined;
    if (row?.state !== 'created')
      part.violations.push(
        `${op.id}: draft ${op.ref} acknowledged, its outbox row is ${row?.state ?? 'missing'}`,
      );
    const entries = final.audit.entries.filter(
      (e) => e.action === 'customer.create' && e.detail?.startsWith(`draft ${op.ref},`) && e.outcome === 'ok',
    );
    if (entries.length !== 1)
      part.violations.push(`${op.id}: draft ${op.ref} has ${entries.length} customer.create entries`);
    else if (entries[0]?.actor !== op.desk || entries[0]?.customerId !== row?.customerId)
      part.violations.push(
        `${op.id}: draft ${op.ref}'s customer.create entry names another desk or customer`,
      );
  }
  return part;
}

/** Each acknowledged note in the store once, by its desk, with its note.add entry; no note nobody wrote. */
function checkNotes(ops: readonly Op[], final: FinalState): Required<Part> {
  const part = { violations: [] as string[], lost: 0, duplicated: 0 };
  const byText = new Map<string, FinalState['notes']>();
  for (const note of final.notes) byText.set(note.text, [...(byText.get(note.text) ?? []), note]);
  const written = new Set<string>();
  for (const op of ops.filter((o) => o.kind === 'note')) {
    written.add(op.key);
    const found = byText.get(op.key) ?? [];
    countViolation(op, found.length, 'its note is in the store', part);
    if (op.outcome !== 'ok' || found.length !== 1) continue;
    const note = found[0]!;
    if (note.author !== op.desk || note.customerId !== op.ref)
      part.violations.push(`${op.id}: its note is stamped ${note.author} on ${note.customerId}`);
    if (!hasEntry(final.audit.entries, 'note.add', op.desk, `note ${note.seq}`))
      part.violations.push(`${op.id}: note ${note.seq} has no note.add entry of ${op.desk}`);
  }
  for (const note of final.notes) {
    if (isNemesisNote(note.text) && !written.has(note.text))
      part.violations.push(`note ${note.seq} ("${note.text}") was written by no operation`);
  }
  return part;
}

const hasEntry = (entries: readonly AuditLine[], action: string, actor: string, detail: string) =>
  entries.some((e) => e.action === action && e.actor === actor && e.detail === detail);

/** Every desk's replica: the store's customers, notes and claims, each at the store's change number. */
function checkReplicas(final: FinalState): string[] {
  return final.replicas.flatMap(({ desk, image }) => {
    const differences = imageDifferences(final.store, image);
    return differences.length === 0
      ? []
      : [`${desk}'s replica differs from the store: ${differences.slice(0, 5).join('; ')}`];
  });
}

export function imageDifferences(store: ReplicaImage, replica: ReplicaImage): string[] {
  const diff = <T>(what: string, a: readonly T[], b: readonly T[], key: (row: T) => string) => {
    const ours = new Set(a.map(key));
    const theirs = new Set(b.map(key));
    return [
      ...[...ours].filter((k) => !theirs.has(k)).map((k) => `${what} ${k} missing`),
      ...[...theirs].filter((k) => !ours.has(k)).map((k) => `${what} ${k} not in the store`),
    ];
  };
  return [
    ...diff('customer', store.customers, replica.customers, (row) => row.join('@')),
    ...diff('note', store.notes, replica.notes, String),
    ...diff('claim', store.claims, replica.claims, (row) => row.join('|')),
  ];
}
