// `team rotate-key` and `team reseal`: a new team key for a team someone left. In one transaction the store's
// keys are re-wrapped under the new team key (the old one is kept, wrapped, as the `legacy` key while values
// sealed directly under it remain), a new current data key is made, the old key's check is retired (a desk
// that holds it says the key changed), unused join codes (they carry the old key) are superseded, an audit
// entry appended, and a new audit seal key begun (keys/audit-keys.ts). The new key is written to `<key file>.new` before that commit and moved over the key
// file after it, so a rotation killed anywhere is finished (or found never to have happened) by running it
// again. With --reseal, every value is then sealed again under the new data key and the old data keys are
// deleted (keys/reseal.ts): a copy of the store taken afterwards cannot be opened with the old team key.
import fs from 'node:fs';
import type pg from 'pg';
import type { AuditAction } from '#contract/audit-actions.ts';
import { isoTime } from '#main/data/journal/time.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { beginAuditKey } from '#main/team/keys/audit-keys.ts';
import {
  ensureEnvelopeKeys,
  LEGACY_KEY_ID,
  loadTeamKeys,
  newKeyId,
  placeOf,
  unwrapKey,
  wrapKey,
} from '#main/team/keys/key-ring.ts';
import { resealStore } from '#main/team/keys/reseal.ts';
import { createTeamKey, decodeTeamKey, encodeTeamKey, isTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { TeamAdminError } from './errors.ts';
import { readTeamMeta } from './team-meta.ts';
import { inTransactionOn } from './transaction.ts';

export interface RotateOptions {
  keyFile: string;
  reseal?: boolean;
  batch?: number;
  onBatch?(values: number): void;
  /** For tests: runs once the rotation has committed, before the key file is replaced (a kill there). */
  afterCommit?(): void;
}

export interface Rotation {
  /** False when this run only finished a rotation an earlier run had committed. */
  rotated: boolean;
  rewrapped: number;
  resealed?: { values: number; retiredKeys: number };
}

const newFileOf = (keyFile: string) => `${keyFile}.new`;

async function keyCheckNow(client: pg.ClientBase): Promise<string> {
  const meta = await readTeamMeta(client);
  if (!meta)
    throw new TeamAdminError('This database is not a Vetted team store: run `npm run team -- init`.');
  return meta.keyCheck;
}

function readKey(file: string): Buffer | undefined {
  try {
    return decodeTeamKey(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes `file` whole and durably before anything depends on it (owner-readable only). */
function writeDurably(file: string, key: Buffer): void {
  const fd = fs.openSync(file, 'w', 0o600);
  try {
    fs.writeSync(fd, `${encodeTeamKey(key)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The key file's team key; after a rotation that committed but did not replace the file, it replaces it. */
async function currentKey(
  client: pg.ClientBase,
  keyFile: string,
): Promise<{ key: Buffer; finished: boolean }> {
  const check = await keyCheckNow(client);
  const pending = readKey(newFileOf(keyFile));
  if (pending && isTeamKey(pending, check)) {
    fs.renameSync(newFileOf(keyFile), keyFile);
    return { key: pending, finished: true };
  }
  // A new key whose rotation never committed opens nothing: it goes.
  if (pending) fs.rmSync(newFileOf(keyFile));
  const key = readKey(keyFile);
  if (!key) throw new TeamAdminError(`${keyFile} does not hold a team key (the file \`team init\` wrote).`);
  if (!isTeamKey(key, check)) {
    const { rows } = await client.query('SELECT 1 FROM vetted.retired_team_keys WHERE key_check = $1', [
      teamKeyCheck(key),
    ]);
    throw new TeamAdminError(
      rows.length > 0
        ? `The key in ${keyFile} was replaced by a rotation: give the key file that rotation wrote.`
        : `The key in ${keyFile} is not this team's key (another team's file?).`,
    );
  }
  return { key, finished: false };
}

/** Re-wraps every key under `next`, makes a new current data key, retires `old`'s check; in the caller's tx. */
async function rewrap(client: pg.ClientBase, old: Buffer, next: Buffer): Promise<number> {
  await ensureEnvelopeKeys(client, old);
  // Values sealed directly under the old team key (before envelope keys) keep opening until resealed.
  await client.query(
    `INSERT INTO vetted.team_keys (key_id, purpose, wrapped, kek_check) VALUES ($1, 'data', $2, $3)
     ON CONFLICT (key_id) DO NOTHING`,
    [LEGACY_KEY_ID, wrapKey(old, LEGACY_KEY_ID, old), teamKeyCheck(old)],
  );
  const { rows } = await client.query<{ key_id: string; wrapped: string }>(
    'SELECT * FROM vetted.team_keys ORDER BY key_id FOR UPDATE',
  );
  const check = teamKeyCheck(next);
  for (const row of rows) {
    const key = unwrapKey(old, placeOf(row), row.wrapped);
    await client.query('UPDATE vetted.team_keys SET wrapped = $2, kek_check = $3 WHERE key_id = $1', [
      row.key_id,
      wrapKey(next, placeOf(row), key),
      check,
    ]);
  }
  const id = newKeyId();
  await client.query('UPDATE vetted.team_keys SET current = false WHERE current');
  await client.query(
    `INSERT INTO vetted.team_keys (key_id, purpose, wrapped, kek_check, current) VALUES ($1, 'data', $2, $3, true)`,
    [id, wrapKey(next, id, createFieldKey()), check],
  );
  await client.query('INSERT INTO vetted.retired_team_keys (key_check) VALUES ($1) ON CONFLICT DO NOTHING', [
    teamKeyCheck(old),
  ]);
  await client.query('UPDATE vetted.team_meta SET key_check = $1', [check]);
  await client.query(
    'UPDATE vetted.join_codes SET superseded_at = now() WHERE used_at IS NULL AND superseded_at IS NULL',
  );
  return rows.length;
}

/** Appends one entry to the team's audit chain, sealed with the team's audit key. */
async function audit(
  client: pg.ClientBase,
  teamKey: Buffer,
  action: AuditAction,
  detail: string,
): Promise<void> {
  const { sealer } = await loadTeamKeys(client, teamKey);
  await appendAuditEntry(client, sealer, {
    at: isoTime(new Date()),
    action,
    customerId: null,
    outcome: 'ok',
    detail,
  });
}

export async function rotateTeamKey(client: pg.ClientBase, options: RotateOptions): Promise<Rotation> {
  const { key: old, finished } = await currentKey(client, options.keyFile);
  let teamKey = old;
  let rewrapped = 0;
  if (!finished) {
    const next = createTeamKey();
    writeDurably(newFileOf(options.keyFile), next);
    rewrapped = await inTransactionOn(client, async () => {
      const count = await rewrap(client, old, next);
      await audit(client, next, 'team.keyRotated', `${count} wrapped keys re-wrapped under a new team key`);
      // From the next entry on, the chain is sealed with the new team key's audit key: not one a leaver holds.
      await beginAuditKey(client, next);
      return count;
    });
    options.afterCommit?.();
    fs.renameSync(newFileOf(options.keyFile), options.keyFile);
    teamKey = next;
  }
  if (!options.reseal) return { rotated: !finished, rewrapped };
  return { rotated: !finished, rewrapped, resealed: await resealTeam(client, teamKey, options) };
}

/** `team reseal`: every value under the current data key, the old data keys deleted; resumable. */
export async function resealTeam(
  client: pg.ClientBase,
  teamKey: Buffer,
  options: Pick<RotateOptions, 'batch' | 'onBatch'> = {},
): Promise<{ values: number; retiredKeys: number }> {
  return resealStore(client, teamKey, {
    ...options,
    finish: (db, retired) =>
      audit(db, teamKey, 'team.keyResealed', `every value resealed; ${retired} old data keys deleted`),
  });
}

/** `team reseal --key-file F`: the key file's key, after finishing any rotation an earlier run committed. */
export async function resealWithKeyFile(
  client: pg.ClientBase,
  keyFile: string,
  options: Pick<RotateOptions, 'batch' | 'onBatch'> = {},
): Promise<{ values: number; retiredKeys: number }> {
  const { key } = await currentKey(client, keyFile);
  return resealTeam(client, key, options);
}
