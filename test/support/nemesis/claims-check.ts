// No case ever had two holders at once, read from the audit chain: every change of a claim is appended to the
// chain in the transaction that writes it (the store refuses the commit otherwise, migration 7), under the
// chain head's lock, so the entries' order is the order the claims changed in. Replaying them per case gives
// who held it after each change; a take while another holds it is the violation.
import type { AuditLine, Op } from './history.ts';

export interface ClaimReplay {
  violations: string[];
  /** Who holds each case after the last entry (null: nobody). */
  holders: Map<string, string | null>;
}

/** Replays the chain's claim entries in order. */
export function replayClaims(entries: readonly AuditLine[]): ClaimReplay {
  const violations: string[] = [];
  const holders = new Map<string, string | null>();
  const claims = entries.filter((e) => e.action.startsWith('claim.')).sort((a, b) => a.seq - b.seq);
  for (const entry of claims) {
    const id = entry.customerId ?? '';
    const held = holders.get(id) ?? null;
    switch (entry.action) {
      case 'claim.take':
        if (held !== null && held !== entry.actor)
          violations.push(`case ${id}: ${entry.actor} took it (entry ${entry.seq}) while ${held} held it`);
        holders.set(id, entry.actor);
        break;
      case 'claim.release':
        if (held !== entry.actor)
          violations.push(
            `case ${id}: ${entry.actor} released it (entry ${entry.seq}) while ${held} held it`,
          );
        holders.set(id, null);
        break;
      case 'claim.expire':
        if (held === null)
          violations.push(`case ${id}: a claim expired (entry ${entry.seq}) that nobody held`);
        holders.set(id, null);
        break;
      case 'claim.reassign':
        // Detail: "from X to Y" (a lead's, which replaces the holder by design).
        holders.set(id, /\bto (\S+)$/.exec(entry.detail ?? '')?.[1] ?? null);
        break;
      case 'claim.takeOver':
        holders.set(id, entry.actor);
        break;
      default:
        violations.push(`entry ${entry.seq}: an unknown claim action ${entry.action}`);
    }
  }
  return { violations, holders };
}

/**
 * The chain's replay against the store's claims as they stand (they must agree), and every acknowledged take
 * and release against the chain (each must be there, under the desk's login).
 */
export function checkClaims(
  ops: readonly Op[],
  entries: readonly AuditLine[],
  store: ReadonlyArray<{ customerId: string; holder: string | null }>,
): string[] {
  const { violations, holders } = replayClaims(entries);
  const inStore = new Map(store.map((c) => [c.customerId, c.holder]));
  for (const id of new Set([...holders.keys(), ...inStore.keys()])) {
    const replayed = holders.get(id) ?? null;
    const stored = inStore.get(id) ?? null;
    if (replayed !== stored)
      violations.push(`case ${id}: the store says ${stored} holds it, the audit chain says ${replayed}`);
  }
  const has = (action: string, actor: string, customerId: string) =>
    entries.some((e) => e.action === action && e.actor === actor && e.customerId === customerId);
  for (const op of ops) {
    if (op.outcome !== 'ok' || !op.ref) continue;
    const action = op.kind === 'release' ? 'claim.release' : 'claim.take';
    if ((op.kind === 'take' || op.kind === 'next' || op.kind === 'release') && !has(action, op.desk, op.ref))
      violations.push(`${op.id}: ${op.kind} of ${op.ref} acknowledged, but no ${action} entry of ${op.desk}`);
  }
  return violations;
}
