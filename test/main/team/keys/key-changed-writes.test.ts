// After a rotation of the team key (#37), a desk still on the old key has every write refused or held in the
// key-changed words of docs/team-admin.md, with the rotation's date: a note, a claim taken or released, a
// draft submitted through the team outbox (which waits on the desk with that reason), an approval asked for
// or decided; and a read of a customer resealed under the new key says the same, not that the desk's
// records could not be read.

import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { rotateTeamKey } from '#admin/rotate-key.ts';
import { submitToTeam } from '#main/team/outbox/submit.ts';
import { decodeTeamKey } from '#main/team/team-key.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { initTeamStore } from '#test/support/team/admin-support.ts';
import {
  approvalsOf,
  type ClaimsReviewer,
  type ClaimsTeam,
  claimsTeam,
} from '#test/support/team/claims-support.ts';
import { connectTo, openDesk } from '#test/support/team/team-journal.ts';

/** The key-changed words, dated: what Settings → Team says to a desk on the old key. */
const KEY_CHANGED = {
  code: 'TeamKeyChanged',
  message: expect.stringMatching(
    /^The team's key was changed on \d{4}-\d{2}-\d{2} \(your administrator rotated it\), so this desk's copy no longer opens the team's data\. Ask your administrator for a new join code/,
  ),
};

const rotate = async (url: string, keyFile: string, reseal = false) =>
  rotateTeamKey(await connectTo(url), { keyFile, reseal });

describe('claims and four eyes on a desk still on the old key', () => {
  let team: ClaimsTeam;
  let ana: ClaimsReviewer;
  let lee: ClaimsReviewer;
  let kim: ClaimsReviewer;
  let asked: string;

  beforeAll(async () => {
    team = await claimsTeam();
    [ana, lee, kim] = [await team.reviewer('ana'), await team.reviewer('lee'), await team.reviewer('kim')];
    await team.setRole(lee.name, 'lead');
    await team.setRole(kim.name, 'lead');
    await team.addCustomers(4, 'retry');
    // Before the rotation: a case held, an approval waiting for a second lead.
    expect(await ana.store.take('c-1', 'take')).toMatchObject({ outcome: 'taken' });
    asked = (await approvalsOf(lee).request('retry', 'c-2', JSON.stringify(validForm()))).id;
    // Every reviewer's desk keeps the keys it held: the old team key's.
    await rotate(team.store.url, team.store.keyFile);
  });

  it('refuses a claim taken or released, in the key-changed words', async () => {
    await expect(ana.store.take('c-3', 'take')).rejects.toMatchObject(KEY_CHANGED);
    await expect(ana.store.release('c-1')).rejects.toMatchObject(KEY_CHANGED);
    const { rows } = await team.admin.query(`SELECT holder FROM vetted.claims WHERE customer_id = 'c-1'`);
    expect(rows).toEqual([{ holder: ana.name }]);
  });

  it('refuses an approval asked for or decided, in the key-changed words', async () => {
    await expect(approvalsOf(kim).request('retry', 'c-4', JSON.stringify(validForm()))).rejects.toMatchObject(
      KEY_CHANGED,
    );
    await expect(approvalsOf(kim).decide(asked, true, 'checked')).rejects.toMatchObject(KEY_CHANGED);
    expect((await approvalsOf(lee).get(asked))?.state).toBe('pending');
  });
});

describe('notes, drafts and reads on a desk still on the old key', () => {
  it('refuses a note, holds a draft with the reason, and reads a resealed customer in the same words', async () => {
    const store = await initTeamStore();
    const teamKey = decodeTeamKey(fs.readFileSync(store.keyFile, 'utf8'));
    const desk = await openDesk({ url: store.url, teamKey });
    await desk.journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), { source: 'poll' });
    await desk.journal.customers.setPersonal('c-1', {
      address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
      dateOfBirth: '1990-01-01',
      ssnLastFour: '1234',
    });
    const { id } = await desk.local.drafts.insert({ form: validForm() });

    await rotate(store.url, store.keyFile, true);

    await expect(desk.journal.notes.add({ customerId: 'c-1', text: 'seen' })).rejects.toMatchObject(
      KEY_CHANGED,
    );
    await expect(desk.journal.customers.personal('c-1')).rejects.toMatchObject(KEY_CHANGED);

    const submitted = await submitToTeam({
      local: desk.local,
      pool: desk.pool,
      cipher: desk.teamKeys.cipher,
      ids: [id],
      today: new Date(),
    });
    expect(submitted).toMatchObject({ queued: [id], moved: [], waiting: [id] });
    // The drafts view's `problem` is the draft's last error: it says why the draft waits.
    expect(await desk.local.drafts.summary(id)).toMatchObject({
      state: 'queued',
      lastError: KEY_CHANGED.message,
    });
    const { rows } = await desk.pool.query('SELECT count(*)::int AS n FROM vetted.team_outbox');
    expect(rows[0].n).toBe(0);
  });
});
