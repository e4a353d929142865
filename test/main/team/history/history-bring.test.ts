// Joining brings the desk's solo history into the team exactly once (#30): a solo journal with customers,
// notes, audit entries and queued drafts is brought by a run stopped after its second batch, then again to the
// end, then a third time: every item is in the team's store once, the drafts reach the service once (the
// team's hub sends them; the sandbox counts creates). Leaving copies this reviewer's team entries onto the
// desk, once however often it leaves.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openJournal, type SqliteJournal } from '#main/data/journal/index.ts';
import { bringHistory } from '#main/team/history/bring.ts';
import { keepTeamCopy } from '#main/team/history/keep.ts';
import { decodeJoinCode } from '#main/team/join-code.ts';
import { appendAuditEntry } from '#main/team/journal/audit.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { openTeamPool } from '#main/team/store/pool.ts';
import { inTransaction } from '#main/team/store/sql.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { customersWithEmail, quickClient, validForm } from '#test/support/desk/drafts.ts';
import { until } from '#test/support/poll.ts';
import { freshDatabase } from '#test/support/postgres/team-db.ts';
import { startTeamRig, type TeamRig } from '#test/support/team/team-rig.ts';

const CUSTOMERS = 4;
const NOTES = 5;
const DRAFTS = 3;

let rig: TeamRig;
let dir: string;
let local: SqliteJournal;
let pool: pg.Pool;
let admin: pg.Client;
let code: ReturnType<typeof decodeJoinCode>;
const emails: string[] = [];

beforeAll(async () => {
  rig = await startTeamRig(await freshDatabase());
  code = decodeJoinCode(rig.reviewers.alice.joinCode);
  pool = openTeamPool(code.connection, rig.reviewers.alice.password);
  admin = new pg.Client({ connectionString: rig.adminUrl });
  await admin.connect();
  dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-history-'));
  local = openJournal({ file: path.join(dir, 'journal.db'), dataKey: Buffer.alloc(32, 7) });
  // The desk's solo work: customers it recorded, notes and audit entries on them, drafts waiting to be sent.
  for (let i = 0; i < CUSTOMERS; i++) {
    const id = `solo-${i}`;
    await local.customers.upsert(serviceCustomer({ id, lastName: `Solo${i}` }), { source: 'poll' });
    await local.audit.record({ action: 'retry.open', customerId: id, outcome: 'ok' });
  }
  for (let i = 0; i < NOTES; i++) {
    await local.notes.add({ customerId: `solo-${i % CUSTOMERS}`, text: `solo note ${i}` });
  }
  for (let i = 0; i < DRAFTS; i++) {
    const form = validForm({ lastName: `Brought${i}` });
    emails.push(form.email as string);
    const draft = await local.drafts.insert({ form: form as never, state: 'queued' });
    await local.outbox.ensureKey(draft.id);
  }
}, 60_000);

afterAll(async () => {
  await local?.close();
  await pool?.end();
  await admin?.end();
  await rig?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The store's current data key and audit key, as the joining desk unwraps them (envelope keys). */
const storeKeys = () => loadTeamKeys(pool, code.teamKey);

const bring = async (afterBatch?: (batches: number) => void) => {
  const { cipher, sealer } = await storeKeys();
  return bringHistory({
    local,
    pool,
    cipher,
    sealer,
    clock: () => new Date(),
    batch: 2,
    ...(afterBatch ? { afterBatch } : {}),
  });
};

const count = async (sql: string) => Number((await admin.query<{ n: string }>(sql)).rows[0]?.n);

test('a join stopped after its second batch, then repeated twice, brings every item exactly once', async () => {
  const auditEntries = await local.audit.count();
  await expect(
    bring((batches) => {
      if (batches === 2) throw new Error('killed after batch 2');
    }),
  ).rejects.toThrow('killed after batch 2');
  expect(await count(`SELECT count(*) AS n FROM vetted.brought_from_desks`)).toBe(4);

  const second = await bring();
  // The stopped run's two batches were the customers (two each): committed then, not brought again.
  expect(second.customers).toEqual({ brought: 0, already: CUSTOMERS });
  expect(second.notes).toEqual({ brought: NOTES, already: 0 });
  expect(second.auditEntries).toEqual({ brought: auditEntries, already: 0 });
  expect(second.drafts).toEqual({ moved: DRAFTS, waiting: 0 });

  const third = await bring();
  expect(third.notes).toEqual({ brought: 0, already: NOTES });
  expect(third.auditEntries).toEqual({ brought: 0, already: auditEntries });
  expect(third.customers).toEqual({ brought: 0, already: CUSTOMERS });
  expect(third.drafts).toEqual({ moved: 0, waiting: 0 });

  const alice = rig.reviewers.alice.login;
  expect(await count(`SELECT count(*) AS n FROM vetted.customers WHERE id LIKE 'solo-%'`)).toBe(CUSTOMERS);
  const notes = await admin.query(
    `SELECT author, brought_from IS NOT NULL AS marked FROM vetted.notes WHERE brought_from IS NOT NULL`,
  );
  expect(notes.rows).toHaveLength(NOTES);
  expect(new Set(notes.rows.map((r) => r.author))).toEqual(new Set([alice]));
  const entries = await admin.query<{ actor: string; detail: string }>(
    `SELECT actor, detail FROM vetted.audit_log WHERE detail LIKE 'brought from desk %'`,
  );
  expect(entries.rows).toHaveLength(auditEntries);
  expect(entries.rows.every((r) => r.actor === alice && / done 20\d\d-/.test(r.detail))).toBe(true);
  expect(await count(`SELECT count(*) AS n FROM vetted.team_outbox`)).toBe(DRAFTS);
  expect((await local.drafts.countByState()).queued).toBe(0);
}, 60_000);

test('the brought drafts reach the service exactly once (the hub sends them)', async () => {
  const service = quickClient(rig.sandbox);
  try {
    await until(
      async () =>
        (await count(`SELECT count(*) AS n FROM vetted.team_outbox WHERE state = 'created'`)) === DRAFTS,
      'the hub to create the brought drafts',
      30_000,
    );
    for (const email of emails) expect(await customersWithEmail(service, email)).toHaveLength(1);
  } finally {
    await service.close();
  }
}, 60_000);

test('leaving keeps this reviewer’s team entries on the desk, once, and not those it brought', async () => {
  const { sealer } = await storeKeys();
  await inTransaction(pool, (client) =>
    appendAuditEntry(client, sealer, {
      at: new Date().toISOString(),
      action: 'retry.open',
      customerId: 'solo-1',
      outcome: 'ok',
      detail: null,
    }),
  );
  const before = await local.audit.count();
  const login = rig.reviewers.alice.login;
  const first = await keepTeamCopy({ local, pool, teamId: code.teamId, login });
  // The team entry alice wrote, and those the store wrote for her (the outbox's outcomes), but none brought.
  const own = await count(
    `SELECT count(*) AS n FROM vetted.audit_log WHERE actor = '${login}' AND coalesce(detail, '') NOT LIKE 'brought from desk %'`,
  );
  expect(own).toBeGreaterThanOrEqual(1);
  expect(first.auditEntries).toBe(own);
  expect(await local.audit.count()).toBe(before + own);
  const kept = await local.audit.list({ limit: 1 });
  expect(kept[0]?.detail).toMatch(/^kept from team [0-9a-f]{8} #\d+: done /);
  expect((await keepTeamCopy({ local, pool, teamId: code.teamId, login })).auditEntries).toBe(0);
  // The copies never go back: bringing again finds nothing new.
  expect((await bring()).auditEntries.brought).toBe(0);
});
