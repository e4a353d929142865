// The audit log's hash chain, the same for the desk's SQLite journal and the team store. Each entry carries
// the chain hash of the entry before it (`prevHash`), the hash of its own content (`contentHash`) and
//   chainHash = SHA-256(prevHash ‖ contentHash)        (the 32-byte values, hex-encoded in the row)
//   seal      = HMAC-SHA256(audit key, chainHash)
// The chain alone shows an entry changed, removed or moved by anyone who did not also recompute every hash
// after it; whoever can write the table can do that, so the seal is keyed with a key the database never
// holds: HKDF of the data key (the team data key on a team's desks and in the administrator's key file; the
// vault's data key on a solo desk) under a label of its own. The content is hashed in an exact, versioned
// form (CONTENT_VERSION) that another program can rebuild from an export: docs/team-admin.md spells it out.
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { AuditEntry, AuditLink } from './repositories/audit.ts';

/** The version of the content's form; it is the first field of what is hashed. */
export const CONTENT_VERSION = 1;
const CONTENT_TAG = `vetted-audit/${CONTENT_VERSION}`;

/** What the first entry's `prevHash` is: 32 zero bytes. */
export const GENESIS_HASH = '0'.repeat(64);

const SEAL_KEY_LABEL = 'vetted:audit-seal/1';
const KEY_CHECK_INPUT = 'vetted:audit-seal-check';
const HASH_HEX = /^[0-9a-f]{64}$/;

/** What an entry's content hash covers: every column of the entry as the database holds it. */
export type AuditContent = Pick<
  AuditEntry,
  'seq' | 'at' | 'actor' | 'action' | 'customerId' | 'outcome' | 'detail'
>;

/**
 * The bytes hashed for an entry: each field as a netstring (`<UTF-8 byte length>:<bytes>,`), a null as `-,`:
 * tag, seq (decimal), at (ISO-8601 UTC as stored), actor, action, customer id, outcome, detail.
 */
export function canonicalContent(entry: AuditContent): Buffer {
  const fields = [
    CONTENT_TAG,
    String(entry.seq),
    entry.at,
    entry.actor,
    entry.action,
    entry.customerId,
    entry.outcome,
    entry.detail,
  ];
  return Buffer.concat(
    fields.map((field) => {
      if (field === null) return Buffer.from('-,');
      const bytes = Buffer.from(field, 'utf8');
      return Buffer.concat([Buffer.from(`${bytes.length}:`), bytes, Buffer.from(',')]);
    }),
  );
}

export const contentHash = (entry: AuditContent): string =>
  createHash('sha256').update(canonicalContent(entry)).digest('hex');

export function chainHash(prevHash: string, content: string): string {
  return createHash('sha256').update(hashBytes(prevHash)).update(hashBytes(content)).digest('hex');
}

/** A 64-digit lower-case hex hash as its 32 bytes; anything else is refused, never hashed as is. */
function hashBytes(hex: string): Buffer {
  if (!HASH_HEX.test(hex)) throw new TypeError('An audit chain hash is 64 lower-case hex digits.');
  return Buffer.from(hex, 'hex');
}

export const isChainHash = (text: string): boolean => HASH_HEX.test(text);

/** Seals chain hashes with the audit key; the key itself never leaves this object. */
export interface AuditSealer {
  seal(chainHash: string): string;
  /** Whether `seal` is the audit key's seal of `chainHash` (constant time). */
  holds(chainHash: string, seal: string): boolean;
  /** HMAC of a fixed text under the audit key: tells the right key from a wrong one, reveals nothing. */
  readonly keyCheck: string;
  /** A team's: the id its store knows the key by (written with each entry; the store refuses an old one). */
  readonly keyId?: string;
}

/** The audit key is HKDF-SHA256(data key, no salt, label 'vetted:audit-seal/1'), 32 bytes. */
export function auditSealKey(dataKey: Buffer): Buffer {
  if (!Buffer.isBuffer(dataKey) || dataKey.length !== 32) {
    throw new TypeError('The audit seal is derived from a 32-byte data key');
  }
  return Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), SEAL_KEY_LABEL, 32));
}

export const auditSealer = (dataKey: Buffer): AuditSealer => sealerOfAuditKey(auditSealKey(dataKey));

/**
 * A sealer on the audit key itself: a team keeps its audit key wrapped by the team key (main/team/keys/), so
 * the chain's seals outlive a rotation of the team key.
 */
export function sealerOfAuditKey(key: Buffer): AuditSealer {
  if (!Buffer.isBuffer(key) || key.length !== 32) throw new TypeError('The audit key is 32 bytes');
  const mac = (data: Buffer | string) => createHmac('sha256', key).update(data).digest('hex');
  const seal = (chain: string) => mac(hashBytes(chain));
  return {
    seal,
    holds(chain, given) {
      if (!isChainHash(chain) || !isChainHash(given)) return false;
      return timingSafeEqual(Buffer.from(seal(chain), 'hex'), Buffer.from(given, 'hex'));
    },
    keyCheck: mac(KEY_CHECK_INPUT),
  };
}

/** The link an entry gets when it is appended after the chain's head `prevHash`. */
export function linkAfter(prevHash: string, entry: AuditContent, sealer: AuditSealer): AuditLink {
  const content = contentHash(entry);
  const chain = chainHash(prevHash, content);
  return {
    version: CONTENT_VERSION,
    prevHash,
    contentHash: content,
    chainHash: chain,
    seal: sealer.seal(chain),
  };
}
