// Envelope keys. Personal data in the team store is sealed with data keys (DEKs); the store keeps each one
// wrapped by the team key (vetted.team_keys, team store migration 9), so a rotation of the team key re-wraps a
// handful of keys instead of every row. A sealed value names its key: `<key id>:v1.<nonce>.<tag>.<ct>`. A
// value without an id was sealed directly under the team key before envelope keys (the `legacy` key): after
// a rotation the old team key is kept, wrapped, as the legacy key until every such value is resealed.
// The audit chain's seal keys are wrapped the same way: the first (`audit`), and one more from each rotation
// on (team store migration 12, keys/audit-keys.ts), each bound to the entry it begins at, so entries sealed
// before a rotation verify after it. Stores that have no wrapped keys yet (migrated without the key file)
// keep today's behaviour: the team key seals data directly and the audit key is derived from it.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type AuditSealer, auditSealKey, sealerOfAuditKey } from '#main/data/journal/audit-chain.ts';
import { cipherOn, type FieldSealer, type PersonalCipher } from '#main/data/journal/personal.ts';
import {
  createFieldKey,
  DecryptError,
  decryptField,
  encryptField,
  KeyNotHeldError,
} from '#main/ground/crypto.ts';
import type { Queryable } from '../store/sql.ts';
import { isTeamKey, teamKeyCheck } from '../team-key.ts';

export const LEGACY_KEY_ID = 'legacy';
export const AUDIT_KEY_ID = 'audit';

/** An audit seal key: the entry it begins at (0 for the first) and the key before it. */
export interface AuditKey {
  readonly id: string;
  readonly from: number;
  readonly after: string | null;
  readonly key: Buffer;
}

/** The keys a team key opens: every data key by id, which one seals new values, and the audit keys. */
export interface KeyRing {
  /** The data key new values are sealed with; LEGACY_KEY_ID while the store has none. */
  readonly current: string;
  readonly keys: ReadonlyMap<string, Buffer>;
  /** Every audit key, oldest first: the last one seals new entries. */
  readonly audit: readonly AuditKey[];
}

export const newKeyId = (): string => `d${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

/**
 * Where a wrapped key is kept: its id, and for an audit key after the first, the entry it begins at and the
 * key before it (so neither can be changed in the store, or in an export, without the team key).
 */
export type KeyPlace = string | { id: string; from: number; after: string };

const wrapAad = (place: KeyPlace) =>
  typeof place === 'string'
    ? `team:team_keys/${place}`
    : `team:team_keys/${place.id}/audit-from/${place.from}/after/${place.after}`;

/** A key sealed under the team key for the store; the AAD names its place, so a wrapped key cannot swap rows. */
export const wrapKey = (teamKey: Buffer, place: KeyPlace, key: Buffer): string =>
  encryptField(teamKey, key.toString('base64url'), wrapAad(place));

export function unwrapKey(teamKey: Buffer, place: KeyPlace, wrapped: string): Buffer {
  return Buffer.from(decryptField(teamKey, wrapped, wrapAad(place)), 'base64url');
}

/** A team_keys row's place (audit_from and audit_after are team store migration 12's). */
export const placeOf = (row: { key_id: string; audit_from?: unknown; audit_after?: unknown }): KeyPlace =>
  row.audit_from == null || row.audit_after == null
    ? row.key_id
    : { id: row.key_id, from: Number(row.audit_from), after: String(row.audit_after) };

/** Which key sealed a token: the id before the first ':', or LEGACY_KEY_ID when it names none. */
export function keyIdOf(token: string): string {
  const colon = token.indexOf(':');
  return colon < 0 ? LEGACY_KEY_ID : token.slice(0, colon);
}

/** What a team key opens when the store holds no wrapped key at all. */
export function legacyRing(teamKey: Buffer): KeyRing {
  return {
    current: LEGACY_KEY_ID,
    keys: new Map([[LEGACY_KEY_ID, teamKey]]),
    audit: [{ id: AUDIT_KEY_ID, from: 0, after: null, key: auditSealKey(teamKey) }],
  };
}

const KeyRowSchema = z.object({
  key_id: z.string().min(1),
  purpose: z.enum(['data', 'audit']),
  wrapped: z.string().min(1),
  current: z.boolean(),
  audit_from: z.coerce.number().int().nonnegative().nullish(),
  audit_after: z.string().nullish(),
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
  // Every column: audit_from and audit_after are migration 12's, and an older store has neither.
  const { rows } = await db.query('SELECT * FROM vetted.team_keys');
  const keys = new Map(legacy.keys);
  let current = LEGACY_KEY_ID;
  const audit: AuditKey[] = [];
  for (const row of z.array(KeyRowSchema).parse(rows)) {
    let key: Buffer;
    try {
      key = unwrapKey(teamKey, placeOf(row), row.wrapped);
    } catch (error) {
      if (!(error instanceof DecryptError)) throw error;
      throw new TeamKeyChangedError(`The wrapped key ${row.key_id} does not open with this team key.`);
    }
    if (row.purpose === 'audit') {
      audit.push({ id: row.key_id, from: row.audit_from ?? 0, after: row.audit_after ?? null, key });
    } else keys.set(row.key_id, key);
    if (row.current) current = row.key_id;
  }
  audit.sort((a, b) => a.from - b.from);
  return { current, keys, audit: audit.length > 0 ? audit : legacy.audit };
}

/** The audit key new entries are sealed with: the newest. */
export const currentAuditKey = (ring: KeyRing): AuditKey => ring.audit.at(-1)!;

/** A sealer on the ring's newest audit key, naming its id (the store refuses entries under an older one). */
function ringSealer(ring: KeyRing): AuditSealer {
  const { id, key } = currentAuditKey(ring);
  return { ...sealerOfAuditKey(key), keyId: id };
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
        throw new KeyNotHeldError(`Sealed with the team data key ${id}, which this desk does not hold.`);
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
  let auditSealer = ringSealer(held);
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
      get keyId() {
        return auditSealer.keyId;
      },
    },
    async reload(db) {
      held = await loadKeyRing(db, teamKey);
      auditSealer = ringSealer(held);
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
