// Envelope keys. Personal data in the team store is sealed with data keys (DEKs); the store keeps each one
// wrapped by the team key (vetted.team_keys, team store migration 9), so a rotation of the team key re-wraps a
// handful of keys instead of every row. A sealed value names its key: `<key id>:v1.<nonce>.<tag>.<ct>`. A
// value without an id was sealed directly under the team key before envelope keys (the `legacy` key): after
// a rotation the old team key is kept, wrapped, as the legacy key until every such value is resealed.
// The audit chain's seal key is wrapped the same way (`audit`), so entries sealed before a rotation verify
// after it. Stores that have no wrapped keys yet (migrated without the key file) keep today's behaviour:
// the team key seals data directly and the audit key is derived from it.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { createFieldKey, DecryptError, decryptField, encryptField } from '../../crypto.ts';
import { type AuditSealer, auditSealKey, sealerOfAuditKey } from '../../journal/audit-chain.ts';
import { cipherOn, type FieldSealer, type PersonalCipher } from '../../journal/personal.ts';
import type { Queryable } from '../store/sql.ts';
import { isTeamKey, teamKeyCheck } from '../team-key.ts';

export const LEGACY_KEY_ID = 'legacy';
export const AUDIT_KEY_ID = 'audit';

/** The keys a team key opens: every data key by id, which one seals new values, and the audit key. */
export interface KeyRing {
  /** The data key new values are sealed with; LEGACY_KEY_ID while the store has none. */
  readonly current: string;
  readonly keys: ReadonlyMap<string, Buffer>;
  readonly audit: Buffer;
}

export const newKeyId = (): string => `d${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

const wrapAad = (keyId: string) => `team:team_keys/${keyId}`;

/** A key sealed under the team key for the store; the AAD names its id, so a wrapped key cannot swap rows. */
export const wrapKey = (teamKey: Buffer, keyId: string, key: Buffer): string =>
  encryptField(teamKey, key.toString('base64url'), wrapAad(keyId));

export function unwrapKey(teamKey: Buffer, keyId: string, wrapped: string): Buffer {
  return Buffer.from(decryptField(teamKey, wrapped, wrapAad(keyId)), 'base64url');
}

/** Which key sealed a token: the id before the first ':', or LEGACY_KEY_ID when it names none. */
export function keyIdOf(token: string): string {
  const colon = token.indexOf(':');
  return colon < 0 ? LEGACY_KEY_ID : token.slice(0, colon);
}

/** What a team key opens when the store holds no wrapped key at all. */
export function legacyRing(teamKey: Buffer): KeyRing {
  return { current: LEGACY_KEY_ID, keys: new Map([[LEGACY_KEY_ID, teamKey]]), audit: auditSealKey(teamKey) };
}

const KeyRowSchema = z.object({
  key_id: z.string().min(1),
  purpose: z.enum(['data', 'audit']),
  wrapped: z.string().min(1),
  current: z.boolean(),
});

/** Thrown when the store's wrapped keys do not open with the key given: it is not (or no longer) the team's. */
export class TeamKeyChangedError extends Error {
  override name = 'TeamKeyChangedError';
}

/** Every wrapped key the store holds, opened with `teamKey`; refuses a key that is not the store's. */
export async function loadKeyRing(db: Queryable, teamKey: Buffer): Promise<KeyRing> {
  const meta = await db.query<{ key_check: string }>('SELECT key_check FROM vetted.team_meta');
  const check = meta.rows[0]?.key_check;
  if (check !== undefined && !isTeamKey(teamKey, check)) {
    throw new TeamKeyChangedError('This team key is not the team store’s current key.');
  }
  const legacy = legacyRing(teamKey);
  // A store before migration 9 (an administrator's command may meet one) has only the team key.
  const table = await db.query<{ found: boolean }>(
    `SELECT to_regclass('vetted.team_keys') IS NOT NULL AS found`,
  );
  if (!table.rows[0]?.found) return legacy;
  const { rows } = await db.query('SELECT key_id, purpose, wrapped, current FROM vetted.team_keys');
  const keys = new Map(legacy.keys);
  let current = LEGACY_KEY_ID;
  let audit = legacy.audit;
  for (const row of z.array(KeyRowSchema).parse(rows)) {
    let key: Buffer;
    try {
      key = unwrapKey(teamKey, row.key_id, row.wrapped);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      throw new TeamKeyChangedError(`The wrapped key ${row.key_id} does not open with this team key.`);
    }
    if (row.purpose === 'audit') audit = key;
    else keys.set(row.key_id, key);
    if (row.current) current = row.key_id;
  }
  return { current, keys, audit };
}

/** Seals with the ring's current data key and opens with whichever key a token names. */
export function ringFields(ring: () => KeyRing): FieldSealer {
  return {
    seal(aad, plaintext) {
      const { current, keys } = ring();
      const token = encryptField(keys.get(current)!, plaintext, aad);
      return current === LEGACY_KEY_ID ? token : `${current}:${token}`;
    },
    open(aad, token) {
      const id = keyIdOf(token);
      const key = ring().keys.get(id);
      if (!key) {
        throw new DecryptError(`Sealed with the team data key ${id}, which this desk does not hold.`);
      }
      return decryptField(key, id === LEGACY_KEY_ID ? token : token.slice(id.length + 1), aad);
    },
  };
}

/** What a desk, the hub or an administrator's command seals and opens the team's data with. */
export interface TeamKeys {
  readonly fields: FieldSealer;
  readonly cipher: PersonalCipher;
  readonly sealer: AuditSealer;
  /** Reads the store's wrapped keys again (after a rotation, or once an unreachable store answers). */
  reload(db: Queryable): Promise<void>;
}

/** The team's keys, starting from what `teamKey` opens alone until `reload` reads the store's. */
export function teamKeys(teamKey: Buffer, ring: KeyRing = legacyRing(teamKey)): TeamKeys {
  let held = ring;
  let auditSealer = sealerOfAuditKey(held.audit);
  const fields = ringFields(() => held);
  return {
    fields,
    cipher: cipherOn(fields),
    sealer: {
      seal: (chain) => auditSealer.seal(chain),
      holds: (chain, seal) => auditSealer.holds(chain, seal),
      get keyCheck() {
        return auditSealer.keyCheck;
      },
    },
    async reload(db) {
      held = await loadKeyRing(db, teamKey);
      auditSealer = sealerOfAuditKey(held.audit);
    },
  };
}

/** The team's keys as the store holds them now. */
export async function loadTeamKeys(db: Queryable, teamKey: Buffer): Promise<TeamKeys> {
  return teamKeys(teamKey, await loadKeyRing(db, teamKey));
}

/**
 * Gives a store its first envelope keys when it has none: a current data key, and the audit key the team key
 * derives today (so the chain's seals go on verifying), both wrapped under `teamKey`. Idempotent.
 */
export async function ensureEnvelopeKeys(db: Queryable, teamKey: Buffer): Promise<void> {
  const check = teamKeyCheck(teamKey);
  await db.query(
    `INSERT INTO vetted.team_keys (key_id, purpose, wrapped, kek_check, current)
     VALUES ($1, 'audit', $2, $3, false) ON CONFLICT (key_id) DO NOTHING`,
    [AUDIT_KEY_ID, wrapKey(teamKey, AUDIT_KEY_ID, auditSealKey(teamKey)), check],
  );
  const { rows } = await db.query(`SELECT 1 FROM vetted.team_keys WHERE purpose = 'data' AND current`);
  if (rows.length > 0) return;
  const id = newKeyId();
  await db.query(
    `INSERT INTO vetted.team_keys (key_id, purpose, wrapped, kek_check, current) VALUES ($1, 'data', $2, $3, true)`,
    [id, wrapKey(teamKey, id, createFieldKey()), check],
  );
}
