// A new audit seal key (#37): made at every rotation of the team key, so that a leaver who kept the old key
// cannot seal entries appended after the rotation (nor re-seal a rewritten chain: rewriting any entry changes
// every chain hash after it, up to entries only the new key seals). The new key is the one the new team key
// derives (HKDF, as the first audit key was derived from the team key before migration 9), so the key file
// alone names the chain's newest key; it is kept wrapped in team_keys with the entry it begins at and the key
// before it (both in the wrap's AAD), beside the older ones, which still verify their stretches. The chain
// itself records where it begins: an `audit.key` entry sealed with it (journal/audit-stretches.ts).
import { randomBytes } from 'node:crypto';
import { auditSealer, auditSealKey, sealerOfAuditKey } from '#main/data/journal/audit-chain.ts';
import {
  AUDIT_KEY_ACTION,
  auditKeyDetail,
  type KeyStretches,
  keyStretches,
} from '#main/data/journal/audit-stretches.ts';
import { isoTime } from '#main/data/journal/time.ts';
import { appendAuditEntry } from '../journal/audit.ts';
import type { Queryable } from '../store/sql.ts';
import { teamKeyCheck } from '../team-key.ts';
import { AUDIT_KEY_ID, type KeyRing, wrapKey } from './key-ring.ts';

const newAuditKeyId = (): string => `a${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/** The newest audit key's id (`audit` while the store has only the first, or none yet). */
export async function newestAuditKeyId(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ key_id: string }>(
    `SELECT key_id FROM vetted.team_keys WHERE purpose = 'audit' ORDER BY coalesce(audit_from, 0) DESC LIMIT 1`,
  );
  return rows[0]?.key_id ?? AUDIT_KEY_ID;
}

/**
 * In the caller's transaction: the audit key `teamKey` derives becomes the chain's current seal key, from the
 * next entry on, which is appended here to say so. Answers its id.
 */
export async function beginAuditKey(db: Queryable, teamKey: Buffer): Promise<string> {
  // The head's lock first: no desk appends between the entry number read here and the entry below.
  const head = await db.query<{ seq: string }>('SELECT seq FROM vetted.audit_chain_head()');
  const from = Number(head.rows[0]?.seq ?? 0) + 1;
  const after = await newestAuditKeyId(db);
  const id = newAuditKeyId();
  const key = auditSealKey(teamKey);
  await db.query(
    `INSERT INTO vetted.team_keys (key_id, purpose, wrapped, kek_check, audit_from, audit_after)
     VALUES ($1, 'audit', $2, $3, $4, $5)`,
    [id, wrapKey(teamKey, { id, from, after }, key), teamKeyCheck(teamKey), from, after],
  );
  await appendAuditEntry(
    db,
    { ...sealerOfAuditKey(key), keyId: id },
    {
      at: isoTime(new Date()),
      action: AUDIT_KEY_ACTION,
      customerId: null,
      outcome: 'ok',
      detail: auditKeyDetail(id),
    },
  );
  return id;
}

/** The ring's audit keys as stretches of the chain, the newest being the one `teamKey` derives. */
export function auditStretches(ring: KeyRing, teamKey: Buffer): KeyStretches {
  const keys = ring.audit.map(({ id, from, after, key }) => ({
    id,
    from,
    after,
    sealer: sealerOfAuditKey(key),
  }));
  return keyStretches(keys, auditSealer(teamKey));
}
