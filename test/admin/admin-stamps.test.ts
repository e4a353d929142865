// Who did something in the team store is the database login: a reviewer can neither claim to be someone
// else when writing a row nor rewrite who wrote it afterwards (team store migration 2 and the grants).
import crypto from 'node:crypto';
import pg from 'pg';
import { beforeAll, expect, test } from 'vitest';
import { defaultReviewerRole } from '#admin/grants.ts';
import { writeKeyFile } from '#admin/key-file.ts';
import { TEAM_LATEST_VERSION, TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations } from '#main/team/store/migrations/runner.ts';
import { createTeamKey, teamKeyCheck } from '#main/team/team-key.ts';
import { freshDatabase } from '../support/postgres/team-db.ts';
import {
  addTestReviewer,
  initTeamStore,
  reviewerPool,
  runTeam,
  type TestReviewer,
  type TestStore,
  tempPath,
  trackPool,
} from '../support/team/admin-support.ts';

const PERMISSION_DENIED = { code: '42501' };
let store: TestStore;
let dora: TestReviewer;
let eve: TestReviewer;

beforeAll(async () => {
  store = await initTeamStore();
  dora = await addTestReviewer(store, 'dora');
  eve = await addTestReviewer(store, 'eve');
});

/** One customer `id` written as a desk writes it, with a change number for each row that follows. */
async function customer(db: pg.Pool, id: string): Promise<() => Promise<number>> {
  const next = async () => Number((await db.query(`SELECT nextval('vetted.change_seq') AS seq`)).rows[0].seq);
  await db.query(
    `INSERT INTO vetted.customers (id, seq, status, section, status_since, created, last_refreshed, changed_at, profile)
     VALUES ($1, $2, 'pending', 'review', now(), now(), now(), now(), 'sealed')`,
    [id, await next()],
  );
  return next;
}

test('a note, a retry and an outbox row carry the login that wrote them, whatever the INSERT names', async () => {
  const db = reviewerPool(eve);
  const next = await customer(db, 'c-claims');
  const note = await db.query<{ author: string }>(
    `INSERT INTO vetted.notes (seq, customer_id, at, author, body) VALUES ($1, 'c-claims', now(), $2, 'sealed')
     RETURNING author`,
    [await next(), dora.name],
  );
  const retry = await db.query<{ actor: string }>(
    `INSERT INTO vetted.retries (customer_id, seq, used_at, actor) VALUES ('c-claims', $1, now(), $2)
     RETURNING actor`,
    [await next(), dora.name],
  );
  const submitted = await db.query<{ submitted_by: string }>(
    `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form, submitted_by)
     VALUES (gen_random_uuid(), 'd-claims', 'sealed', $1) RETURNING submitted_by`,
    [dora.name],
  );
  expect(note.rows).toEqual([{ author: eve.name }]);
  expect(retry.rows).toEqual([{ actor: eve.name }]);
  expect(submitted.rows).toEqual([{ submitted_by: eve.name }]);
  // The owner holds every privilege; the trigger still keeps who submitted it.
  const owner = trackPool(new pg.Pool({ connectionString: store.url, max: 1 }));
  const kept = await owner.query<{ submitted_by: string }>(
    `UPDATE vetted.team_outbox SET submitted_by = 'someone', state = 'created' WHERE draft_id = 'd-claims'
     RETURNING submitted_by`,
  );
  expect(kept.rows).toEqual([{ submitted_by: eve.name }]);
});

test('a reviewer cannot rewrite who used a retry or submitted a draft, the history, or an event', async () => {
  const db = reviewerPool(eve);
  const next = await customer(db, 'c-rewrite');
  await db.query(
    `INSERT INTO vetted.status_history (seq, customer_id, status, at, source) VALUES ($1, 'c-rewrite', 'pending', now(), 'poll')`,
    [await next()],
  );
  await db.query(`INSERT INTO vetted.retries (customer_id, seq, used_at) VALUES ('c-rewrite', $1, now())`, [
    await next(),
  ]);
  await db.query(
    `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, form) VALUES (gen_random_uuid(), 'd-rewrite', 'sealed')`,
  );
  await db.query(
    `INSERT INTO vetted.events (id, topic, resource_id, created, received_at, signature_verified)
     VALUES ('e-rewrite', 'customer.verified', 'c-rewrite', now(), now(), true)`,
  );
  const refused = [
    `UPDATE vetted.retries SET actor = 'someone' WHERE customer_id = 'c-rewrite'`,
    `UPDATE vetted.retries SET customer_id = 'c-other' WHERE customer_id = 'c-rewrite'`,
    `UPDATE vetted.team_outbox SET submitted_by = 'someone' WHERE draft_id = 'd-rewrite'`,
    `UPDATE vetted.team_outbox SET form = 'forged' WHERE draft_id = 'd-rewrite'`,
    `UPDATE vetted.status_history SET status = 'verified' WHERE customer_id = 'c-rewrite'`,
    `UPDATE vetted.events SET topic = 'customer.suspended' WHERE id = 'e-rewrite'`,
  ];
  for (const sql of refused) await expect(db.query(sql), sql).rejects.toMatchObject(PERMISSION_DENIED);
  // What the desk does update still goes through.
  await db.query(`UPDATE vetted.retries SET outcome = 'verified' WHERE customer_id = 'c-rewrite'`);
  await db.query(`UPDATE vetted.team_outbox SET state = 'created' WHERE draft_id = 'd-rewrite'`);
  await db.query(`UPDATE vetted.events SET processed_at = now() WHERE id = 'e-rewrite'`);
});

test('a released retry used again belongs to its new user; any other update keeps who used it, even for the owner', async () => {
  const doraDb = reviewerPool(dora);
  const next = await customer(doraDb, 'c-reuse');
  const use = (db: pg.Pool) =>
    next().then((seq) =>
      db.query<{ actor: string }>(
        `INSERT INTO vetted.retries AS r (customer_id, seq, used_at) VALUES ('c-reuse', $1, now())
         ON CONFLICT (customer_id) DO UPDATE SET seq = excluded.seq, released = false RETURNING actor`,
        [seq],
      ),
    );
  expect((await use(doraDb)).rows).toEqual([{ actor: dora.name }]);
  // Not released: eve's update is not a new use.
  expect((await use(reviewerPool(eve))).rows).toEqual([{ actor: dora.name }]);
  await doraDb.query(`UPDATE vetted.retries SET released = true WHERE customer_id = 'c-reuse'`);
  expect((await use(reviewerPool(eve))).rows).toEqual([{ actor: eve.name }]);
  // The owner holds every privilege; the trigger still keeps who used it.
  const owner = trackPool(new pg.Pool({ connectionString: store.url, max: 1 }));
  const { rows } = await owner.query<{ actor: string }>(
    `UPDATE vetted.retries SET actor = 'someone' WHERE customer_id = 'c-reuse' RETURNING actor`,
  );
  expect(rows).toEqual([{ actor: eve.name }]);
});

/**
 * A team store as Vetted's schema 1 left it: `init` of that version (its tables, a team, the group with
 * table-wide UPDATE grants), for `migrate` to bring up to this Vetted's schema.
 */
async function storeAtSchema1(): Promise<TestStore> {
  const url = await freshDatabase();
  const keyFile = tempPath('team.key');
  const key = createTeamKey();
  writeKeyFile(keyFile, key);
  const owner = trackPool(new pg.Pool({ connectionString: url, max: 1 }));
  const client = await owner.connect();
  try {
    await applyTeamMigrations(client, TEAM_MIGRATIONS.slice(0, 1));
    const role = defaultReviewerRole(new URL(url).pathname.slice(1));
    const group = pg.escapeIdentifier(role);
    await client.query(`
      CREATE ROLE ${group} NOLOGIN;
      GRANT USAGE ON SCHEMA vetted TO ${group};
      GRANT SELECT, INSERT, UPDATE ON ALL TABLES IN SCHEMA vetted TO ${group};
      GRANT DELETE ON vetted.webhook_rejections TO ${group};
      GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA vetted TO ${group};`);
    await client.query(
      'INSERT INTO vetted.team_meta (team_id, key_check, reviewer_role) VALUES ($1, $2, $3)',
      [crypto.randomUUID(), teamKeyCheck(key), role],
    );
  } finally {
    client.release();
  }
  return { url, keyFile };
}

test('`migrate` brings a store as schema 1 left it to this schema: the claims and rewrites it allowed stop', async () => {
  const old = await storeAtSchema1();
  const frank = await addTestReviewer(old, 'frank', '--sslmode', 'disable');
  const db = reviewerPool(frank);
  const next = await customer(db, 'c-old');
  const forge = () =>
    next().then((seq) =>
      db.query<{ author: string }>(
        `INSERT INTO vetted.notes (seq, customer_id, at, author, body) VALUES ($1, 'c-old', now(), 'someone', 'x')
         RETURNING author`,
        [seq],
      ),
    );
  expect((await forge()).rows).toEqual([{ author: 'someone' }]);
  const emptyTheSecurityLog = () => db.query('DELETE FROM vetted.webhook_rejections');
  await emptyTheSecurityLog();

  const run = await runTeam('migrate', '--database', old.url);
  expect(run.out).toContain(
    `migrated from schema version 1 to ${TEAM_LATEST_VERSION}; the reviewers' grants were re-applied`,
  );
  expect((await forge()).rows).toEqual([{ author: frank.name }]);
  await expect(db.query(`UPDATE vetted.status_history SET status = 'x'`)).rejects.toMatchObject(
    PERMISSION_DENIED,
  );
  await expect(emptyTheSecurityLog()).rejects.toMatchObject(PERMISSION_DENIED);
});
