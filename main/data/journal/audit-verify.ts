// Checks an audit chain entry by entry, oldest first, and names the first entry that was changed, removed or
// moved. Read from the team store (`npm run team -- verify-audit`) or from an export file: the same checks.
// Without the audit key only the plain chain is checked, which whoever can write the log can recompute; with
// it, every entry's seal too, which nobody without the key can forge. A team's chain is sealed by a new key
// after each rotation of the team key (audit-stretches.ts): each entry is checked with the key of its stretch.
import { type AuditSealer, chainHash, contentHash, GENESIS_HASH } from './audit-chain.ts';
import { AuditChainError } from './audit-chain-error.ts';
import { type KeyStretches, oneKey, stretchProblem } from './audit-stretches.ts';
import type { LinkedAuditEntry } from './repositories/audit.ts';

export { AuditChainError } from './audit-chain-error.ts';

/** An entry of the chain named by seq and chain hash: a head, or one noted before. */
export interface ChainPoint {
  seq: number;
  chainHash: string;
}

export interface ChainCheckOptions {
  /** Checks every seal with this key. */
  sealer?: AuditSealer;
  /** Checks every seal with the key of its stretch (a team's chain, its keys changed at rotations). */
  keys?: KeyStretches;
  /**
   * The entries are the whole chain from its start (the log itself, or an unfiltered export): each must
   * link to the one before. A filtered export lists some entries only: each is checked on its own.
   */
  whole: boolean;
  /** An entry the chain must still hold (a head noted earlier): its end was not cut off since. */
  holds?: ChainPoint;
}

export interface ChainSummary {
  entries: number;
  /** The last entry checked; null when there was none. */
  last: ChainPoint | null;
  sealed: boolean;
}

const range = (from: number, to: number) => (from === to ? `entry ${from}` : `entries ${from}–${to}`);
const wereRemoved = (from: number, to: number) =>
  `${range(from, to)} ${from === to ? 'was' : 'were'} removed`;

export function chainChecker({ sealer, keys, whole, holds }: ChainCheckOptions) {
  const stretches = keys ?? (sealer ? oneKey(sealer) : undefined);
  let before: LinkedAuditEntry | null = null;
  let entries = 0;
  let held = false;

  /** Why `entry` does not follow `before`, when it does not. */
  function linkProblem(entry: LinkedAuditEntry): string | null {
    const expected = before ? before.link.chainHash : GENESIS_HASH;
    // Of a filtered export, only entries listed one after the other can be checked to link.
    const follows = before !== null && entry.seq === before.seq + 1;
    if ((!whole && !follows) || entry.link.prevHash === expected) return null;
    if (!before) return `entry ${entry.seq} is not the chain's first: the entries before it were removed`;
    const missing = entry.seq > before.seq + 1 ? ` (${range(before.seq + 1, entry.seq - 1)} missing)` : '';
    return (
      `entry ${entry.seq} does not follow entry ${before.seq}${missing}: ` +
      'an entry between them was removed, or the entries were reordered'
    );
  }

  function problem(entry: LinkedAuditEntry): string | null {
    if (before && entry.seq <= before.seq) {
      return `entry ${entry.seq} comes after entry ${before.seq}: the entries were reordered`;
    }
    if (contentHash(entry) !== entry.link.contentHash) {
      return `entry ${entry.seq} was changed: its content is not what was hashed when it was written`;
    }
    const link = linkProblem(entry);
    if (link) return link;
    if (chainHash(entry.link.prevHash, entry.link.contentHash) !== entry.link.chainHash) {
      return `entry ${entry.seq} was changed: its chain hash does not match its links`;
    }
    const key = stretches?.at(entry.seq);
    if (key && !key.sealer.holds(entry.link.chainHash, entry.link.seal)) {
      const gap = before && entry.seq > before.seq + 1 ? `, or ${range(before.seq + 1, entry.seq - 1)}` : '';
      const which =
        stretches && stretches.keys.length > 1 ? `audit key ${key.id}'s seal` : "the audit key's seal";
      return (
        `entry ${entry.seq} does not carry ${which}: it${gap} was changed or removed, and the ` +
        'chain recomputed by someone without the key'
      );
    }
    if (whole && stretches) {
      const stretch = stretchProblem(stretches, entry);
      if (stretch) return stretch;
    }
    if (holds && entry.seq === holds.seq && entry.link.chainHash !== holds.chainHash) {
      return `entry ${entry.seq} is not the entry noted before (its chain hash differs): it was replaced`;
    }
    return null;
  }

  return {
    /** Checks the next entry; throws AuditChainError at the first that does not hold. */
    add(entry: LinkedAuditEntry): void {
      const found = problem(entry);
      if (found) throw new AuditChainError(entry.seq, found);
      if (holds && entry.seq === holds.seq) held = true;
      before = entry;
      entries += 1;
    },
    /** After the last entry: checks it against the log's head, and that the noted entry was met. */
    finish(head: ChainPoint): ChainSummary {
      const last = before ? { seq: before.seq, chainHash: before.link.chainHash } : null;
      const end = last ?? { seq: 0, chainHash: GENESIS_HASH };
      if (whole && (end.seq !== head.seq || end.chainHash !== head.chainHash)) {
        throw new AuditChainError(
          head.seq,
          head.seq > end.seq
            ? `the log ends at entry ${end.seq} but its head is entry ${head.seq}: ${wereRemoved(end.seq + 1, head.seq)}`
            : `the log's head names entry ${head.seq}, not its last entry (${end.seq}): the head was altered`,
        );
      }
      if (!whole && end.seq === head.seq && end.chainHash !== head.chainHash) {
        throw new AuditChainError(head.seq, `entry ${head.seq} is not the head's: it was replaced`);
      }
      const beyond = whole ? stretches?.keys.find((key) => key.from > end.seq) : undefined;
      if (beyond) {
        throw new AuditChainError(
          beyond.from,
          `audit key ${beyond.id} begins at entry ${beyond.from}, after the log's last entry: ${wereRemoved(end.seq + 1, beyond.from)}`,
        );
      }
      if (holds && !held) {
        throw new AuditChainError(
          holds.seq,
          `entry ${holds.seq}, noted before, is no longer in the chain: entries were removed from its end`,
        );
      }
      return { entries, last, sealed: stretches !== undefined };
    },
  };
}
