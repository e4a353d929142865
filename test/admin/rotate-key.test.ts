// `npm run team -- rotate-key`: after a rotation with --reseal, a copy of the store taken afterwards does not
// open with the old team key (neither its values nor its wrapped keys), a desk on the new key reads every
// customer, note and pending draft as before, and the audit chain still verifies. A rotation killed after
// its commit, and a reseal stopped halfway, both resume to a consistent store.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { rotateTeamKey } from '#admin/rotate-key.ts';
import type { CustomerForm } from '#contract/drafts.ts';
import { decryptField } from '#main/ground/crypto.ts';
import { keyIdOf, LEGACY_KEY_ID, unwrapKey } from '#main/team/keys/key-ring.ts';
import { SEALED_TABLES, staleValues } from '#main/team/keys/reseal.ts';
import { openForm, sealForm } from '#main/team/outbox/rows.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import { serviceCustomer } from '../main/data/journal/helpers.ts';
import { samplePerson } from '../support/person.ts';
import { addTestReviewer, initTeamStore, runTeam, type TestStore } from '../support/team/admin-support.ts';
import { connectTo, type Desk, openDesk } from '../support/team/team-journal.ts';

const PERSONAL = {
  address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
  dateOfBirth: '1990-01-01',
  ssnLastFour: '1234',
};
const FORM: CustomerForm = samplePerson('Ada', 'Lovelace', 'ada@example.com');

let store: TestStore;
const keyNow = () => decodeTeamKey(fs.readFileSync(store.keyFile, 'utf8'));

/** Customers, notes and a pending draft, written by a desk on the key `init` made. */
async function teamWithData(desk: Desk, customers: number): Promise<void> {
  for (let i = 0; i < customers; i++) {
    await desk.journal.customers.upsert(serviceCustomer({ id: `c-${i}`, status: 'retry' }), {
      source: 'poll',
    });
    await desk.journal.customers.setPersonal(`c-${i}`, PERSONAL);
    await desk.journal.notes.add({ customerId: `c-${i}`, text: `note ${i}` });
  }
  await desk.pool.query(
    `INSERT INTO vetted.team_outbox (idempotency_key, draft_id, key_created_at, form) VALUES ($1, 'd-1', now(), $2)`,
    [crypto.randomUUID(), sealForm(desk.teamKeys.cipher, 'd-1', FORM)],
  );
}

/** What a desk reads of the team's data, for comparing before and after. */
async function everything(desk: Desk, customers: number) {
  const read = [];
  for (let i = 0; i < customers; i++) {
    read.push({
      customer: await desk.journal.customers.get(`c-${i}`),
      personal: await desk.journal.customers.personal(`c-${i}`),
      notes: (await desk.journal.notes.list(`c-${i}`)).map((note) => note.text),
    });
  }
  const { rows } = await desk.pool.query('SELECT draft_id, form FROM vetted.team_outbox');
  return { read, drafts: rows.map((row) => openForm(desk.teamKeys.cipher, row)) };
}

/** Every sealed value and wrapped key of a copy of the store, tried with `key` as a leaver would. */
async function opensWith(key: Buffer): Promise<number> {
  const owner = await connectTo(store.url);
  let opened = 0;
  const attempt = (work: () => unknown) => {
    try {
      work();
      opened += 1;
    } catch {}
  };
  const wrapped = (await owner.query('SELECT key_id, wrapped FROM vetted.team_keys')).rows;
  const keys = [key];
  for (const row of wrapped) attempt(() => keys.push(unwrapKey(key, row.key_id, row.wrapped)));
  for (const { table, columns } of SEALED_TABLES) {
    for (const row of (await owner.query(`SELECT * FROM vetted.${table}`)).rows) {
      for (const column of columns) {
        const token: string | null = row[column];
        if (token === null) continue;
        const bare = keyIdOf(token) === LEGACY_KEY_ID ? token : token.slice(token.indexOf(':') + 1);
        // Without the AAD's row the leaver still has the key: any key that authenticates counts as opened.
        for (const candidate of keys) attempt(() => decryptField(candidate, bare, aadOf(table, row, column)));
      }
    }
  }
  return opened;
}

const aadOf = (table: string, row: Record<string, unknown>, column: string) => {
  const spec = SEALED_TABLES.find((sealed) => sealed.table === table)!;
  return spec.aad(String(row[spec.key]), column);
};

beforeEach(async () => {
  store = await initTeamStore();
});

describe('rotate-key', () => {
  it('after --reseal a copy of the store does not open with the old key, and desks on the new key read all', async () => {
    const oldKey = keyNow();
    const before = await openDesk({ url: store.url, teamKey: oldKey });
    await teamWithData(before, 3);
    const read = await everything(before, 3);
    expect(await opensWith(oldKey)).toBeGreaterThan(0);

    const run = await runTeam(
      'rotate-key',
      '--database',
      store.url,
      '--key-file',
      store.keyFile,
      '--reseal',
      '--batch',
      '2',
    );
    expect(run, run.err).toMatchObject({ code: 0 });
    expect(run.out).toMatch(/rotated.*Every sealed value is under the current data key \(10 resealed now\)/s);

    expect(keyNow().equals(oldKey)).toBe(false);
    expect(await opensWith(oldKey)).toBe(0);
    const after = await openDesk({ url: store.url, teamKey: keyNow() });
    expect(await everything(after, 3)).toEqual(read);
    expect(await opensWith(keyNow())).toBeGreaterThan(0);

    const verified = await runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile);
    expect(verified, verified.err).toMatchObject({ code: 0 });
    const actions = await (await connectTo(store.url)).query(
      `SELECT action FROM vetted.audit_log WHERE action LIKE 'team.key%' ORDER BY seq`,
    );
    expect(actions.rows.map((row) => row.action)).toEqual(['team.keyRotated', 'team.keyResealed']);
  });

  it('without --reseal re-wraps only: values stay as they are and open on the new key; the old key opens no wrapped key', async () => {
    const oldKey = keyNow();
    const desk = await openDesk({ url: store.url, teamKey: oldKey });
    await teamWithData(desk, 2);
    const read = await everything(desk, 2);
    const run = await runTeam('rotate-key', '--database', store.url, '--key-file', store.keyFile);
    expect(run, run.err).toMatchObject({ code: 0 });
    const owner = await connectTo(store.url);
    for (const row of (await owner.query('SELECT key_id, wrapped FROM vetted.team_keys')).rows) {
      expect(() => unwrapKey(oldKey, row.key_id, row.wrapped)).toThrow();
    }
    expect(await everything(await openDesk({ url: store.url, teamKey: keyNow() }), 2)).toEqual(read);
    expect(
      await staleValues(
        owner,
        (await owner.query(`SELECT key_id FROM vetted.team_keys WHERE current`)).rows[0].key_id,
      ),
    ).toBeGreaterThan(0);
    const verified = await runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile);
    expect(verified, verified.err).toMatchObject({ code: 0 });
  });

  it('a rotation killed after its commit is finished by running it again; a reseal stopped halfway resumes', async () => {
    const oldKey = keyNow();
    const desk = await openDesk({ url: store.url, teamKey: oldKey });
    await teamWithData(desk, 4);
    const read = await everything(desk, 4);
    const owner = await connectTo(store.url);
    const killed = new Error('killed');
    await expect(
      rotateTeamKey(owner, {
        keyFile: store.keyFile,
        afterCommit: () => {
          throw killed;
        },
      }),
    ).rejects.toBe(killed);
    // The store has the new key, the key file the old one; the new one waits beside it.
    expect(keyNow().equals(oldKey)).toBe(true);
    expect(fs.existsSync(`${store.keyFile}.new`)).toBe(true);

    let batches = 0;
    await expect(
      rotateTeamKey(owner, {
        keyFile: store.keyFile,
        reseal: true,
        batch: 2,
        onBatch: () => {
          batches += 1;
          if (batches === 2) throw killed;
        },
      }),
    ).rejects.toBe(killed);
    expect(keyNow().equals(oldKey)).toBe(false);
    // Halfway: some values under the new data key, some still under the old ones, every one opens.
    const halfway = await openDesk({ url: store.url, teamKey: keyNow() });
    expect(await everything(halfway, 4)).toEqual(read);

    const resumed = await runTeam('reseal', '--database', store.url, '--key-file', store.keyFile);
    expect(resumed, resumed.err).toMatchObject({ code: 0 });
    expect(await opensWith(oldKey)).toBe(0);
    expect(await everything(await openDesk({ url: store.url, teamKey: keyNow() }), 4)).toEqual(read);
    const verified = await runTeam('verify-audit', '--database', store.url, '--key-file', store.keyFile);
    expect(verified, verified.err).toMatchObject({ code: 0 });
  });

  it('remove-reviewer advises a rotation only for whom a code of the current key was made', async () => {
    const before = await addTestReviewer(store, 'bob');
    expect((await runTeam('rotate-key', '--database', store.url, '--key-file', store.keyFile)).code).toBe(0);
    const after = await addTestReviewer(store, 'carol');
    const bob = await runTeam('remove-reviewer', before.name, '--database', store.url);
    expect(bob, bob.err).toMatchObject({ code: 0 });
    expect(bob.out).not.toMatch(/rotation/);
    const carol = await runTeam('remove-reviewer', after.name, '--database', store.url);
    expect(carol.out).toMatch(/A rotation of the team key is advised: .*rotate-key/s);
  });

  it('the store refuses a value sealed under a key the rotation retired: a desk on the old key cannot add one', async () => {
    const desk = await openDesk({ url: store.url, teamKey: keyNow() });
    await teamWithData(desk, 1);
    expect((await runTeam('rotate-key', '--database', store.url, '--key-file', store.keyFile)).code).toBe(0);
    await expect(desk.journal.notes.add({ customerId: 'c-0', text: 'too late' })).rejects.toThrow();
    const owner = await connectTo(store.url);
    const { rows } = await owner.query(`SELECT count(*)::int AS n FROM vetted.notes`);
    expect(rows[0].n).toBe(1);
  });
});
