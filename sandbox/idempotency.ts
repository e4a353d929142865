import { createHash } from 'node:crypto';
import { badRequest, serviceError, validationError } from './errors.ts';
import type { WireReply } from './reply.ts';
import type { Store } from './store.ts';
import type { App } from './types.ts';

/**
 * `Idempotency-Key` on POST (service-facts.md §8): the same key and body within 24 h replays the
 * original response; the same key while the first request runs is `409 Conflict`; the same key
 * with another body is `400 ValidationError` (`Invalid` at `/`).
 */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;
/** Expired keys are deleted in bulk at most this often (sandbox time); an expired one met earlier goes alone. */
const PURGE_EVERY_MS = 60 * 1000;
const lastPurge = new WeakMap<Store, number>();

export type Claim =
  | { kind: 'fresh'; complete(reply: WireReply): void; release(): void }
  | { kind: 'replay'; reply: WireReply };

interface KeyRow extends Record<string, unknown> {
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  headers: string | null;
  body: Uint8Array | null;
  created_ms: number;
}

export function requestFingerprint(method: string, path: string, content: string | Buffer): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(content).digest('hex');
}

/** JSON with sorted keys, so the same object sent with another key order counts as the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Claims `key` for this request, or answers with the replay; throws the 400/409 answers. */
export function claimKey(app: App, key: string, fingerprint: string): Claim {
  if (key.length > MAX_KEY_LENGTH)
    throw badRequest(`Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters.`);
  const { store, clock } = app;
  return store.transaction(() => {
    const now = clock.now();
    const expiredBy = now - KEY_LIFETIME_MS;
    // A delete on every request cost the keyed path more than its work: a sweep now and then keeps the table
    // small, and the key asked for is judged by its age, so the answer is the same as with a delete each time.
    if (now - (lastPurge.get(store) ?? Number.NEGATIVE_INFINITY) >= PURGE_EVERY_MS) {
      store.run('DELETE FROM idempotency WHERE created_ms <= ?', expiredBy);
      lastPurge.set(store, now);
    }
    let row = store.get<KeyRow>('SELECT * FROM idempotency WHERE key = ?', key);
    if (row && row.created_ms <= expiredBy) {
      store.run('DELETE FROM idempotency WHERE key = ?', key);
      row = undefined;
    }
    if (!row) {
      store.run(
        "INSERT INTO idempotency (key, fingerprint, state, created_ms) VALUES (?, ?, 'running', ?)",
        key,
        fingerprint,
        now,
      );
      return freshClaim(store, key);
    }
    if (row.fingerprint !== fingerprint) throw keyReused();
    if (row.state === 'running') {
      throw serviceError(409, 'Conflict', 'A request with this Idempotency-Key is still being processed.');
    }
    return { kind: 'replay', reply: storedReply(row) };
  });
}

function freshClaim(store: Store, key: string): Claim {
  const release = (): void => store.run('DELETE FROM idempotency WHERE key = ?', key);
  return {
    kind: 'fresh',
    release,
    complete: (reply) => {
      if (!isReplayable(reply.status)) return release();
      store.run(
        "UPDATE idempotency SET state = 'done', status = ?, headers = ?, body = ? WHERE key = ?",
        reply.status,
        JSON.stringify(reply.headers),
        reply.body,
        key,
      );
    },
  };
}

// Server errors, conflicts and rate limits are transient: the client's retry must run again.
function isReplayable(status: number): boolean {
  return status < 500 && status !== 409 && status !== 429;
}

function storedReply(row: KeyRow): WireReply {
  const headers = JSON.parse(row.headers ?? '{}') as Record<string, string>;
  return {
    status: row.status ?? 200,
    headers: { ...headers, 'Idempotent-Replayed': 'true' },
    body: Buffer.from(row.body ?? new Uint8Array()),
  };
}

function keyReused() {
  return validationError([
    {
      code: 'Invalid',
      message: 'Idempotency-Key was already used with a different request body.',
      path: '/',
      _links: {},
    },
  ]);
}

/** A key left `running` by a previous process can never complete; forget it on start. */
export function forgetUnfinishedKeys(store: Store): void {
  store.run("DELETE FROM idempotency WHERE state = 'running'");
}
