// The audit chain's seal keys, stretch by stretch (#37). A team's audit key changes at every rotation of the
// team key, so that whoever held an old key (a leaver) cannot seal entries made after it. The chain records
// where each key begins: an `audit.key` entry naming the new key, itself sealed with it; every entry from it
// on is sealed with that key until the next one begins. The verifier is given every key with the entry it
// begins at, each key naming the one before it (`after`; both bound to the key where it is kept wrapped), and
// the key file's own audit key, which must be the newest: so no key can be left out or moved, and rewriting
// any entry, which changes every chain hash after it, needs the newest key to seal the end again.
import type { AuditSealer } from './audit-chain.ts';
import { AuditChainError } from './audit-chain-error.ts';

/** The action of the entry where an audit key begins. */
export const AUDIT_KEY_ACTION = 'audit.key';
const DETAIL = /^audit key ([a-z0-9-]+) seals from this entry on$/;

/** The detail of the entry where audit key `id` begins. */
export const auditKeyDetail = (id: string): string => `audit key ${id} seals from this entry on`;

/** The key an `audit.key` entry's detail names, or null for any other entry. */
export function keyBegunBy(entry: { action: string; detail: string | null }): string | null {
  if (entry.action !== AUDIT_KEY_ACTION) return null;
  return DETAIL.exec(entry.detail ?? '')?.[1] ?? '';
}

/** One seal key and the entry it begins at (0: the chain's first key). */
export interface StretchKey {
  id: string;
  from: number;
  /** The key before it; null for the first. */
  after: string | null;
  sealer: AuditSealer;
}

export interface KeyStretches {
  /** Oldest first. */
  readonly keys: readonly StretchKey[];
  /** The key that seals entry `seq`. */
  at(seq: number): StretchKey;
}

/**
 * The stretches of `keys`; throws AuditChainError when a key was left out or the newest is not `current`
 * (the key file's audit key).
 */
export function keyStretches(keys: readonly StretchKey[], current: AuditSealer): KeyStretches {
  const sorted = [...keys].sort((a, b) => a.from - b.from);
  sorted.forEach((key, i) => {
    const before = sorted[i - 1];
    if (before && key.after !== before.id) {
      throw new AuditChainError(
        key.from,
        `audit key ${key.id} (from entry ${key.from}) does not follow audit key ${before.id}: an audit key was removed`,
      );
    }
  });
  const newest = sorted.at(-1);
  if (!newest || newest.sealer.keyCheck !== current.keyCheck) {
    throw new AuditChainError(
      newest?.from ?? 0,
      "the newest audit key is not the key file's: an audit key was removed, or the key file is not the team's current one",
    );
  }
  return {
    keys: sorted,
    at: (seq) => sorted.findLast((key) => key.from <= seq) ?? sorted[0]!,
  };
}

/** A single key sealing the whole chain (a solo desk's log, or a team's before any rotation). */
export const oneKey = (sealer: AuditSealer, id = 'audit'): KeyStretches =>
  keyStretches([{ id, from: 0, after: null, sealer }], sealer);

/**
 * Why `entry` breaks the stretches when the whole chain is read: an `audit.key` entry that does not begin the
 * key the keys say begins there, or a key's first entry that is not its `audit.key` entry. Null when it holds.
 */
export function stretchProblem(
  stretches: KeyStretches,
  entry: { seq: number; action: string; detail: string | null },
): string | null {
  const key = stretches.at(entry.seq);
  const begun = keyBegunBy(entry);
  const begins = key.from === entry.seq && key.after !== null;
  if (begun === null && !begins) return null;
  if (begins && begun === key.id) return null;
  return begins
    ? `entry ${entry.seq} is not where audit key ${key.id} begins, as the team's keys say: it was changed`
    : `entry ${entry.seq} begins an audit key (${begun || 'unnamed'}) the team's keys do not begin there: it was changed or inserted`;
}
