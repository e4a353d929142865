// A solo desk and #28's claims and roles: its one reviewer holds every case and is their own lead. Nothing is
// claimed or refused for a claim or a role; "Mine" is the whole queue and "Unclaimed" empty; there is no one
// to reassign to and no team whose settings to change, which it says in words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { osUserName } from '#main/ground/os-user.ts';
import { createOnService, type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

let h: DeskHarness;
let customerId: string;

beforeAll(async () => {
  h = await startDesk();
  customerId = await createOnService(h, 'document', 'solo-claims@example.com');
  await h.call('customers.add', { ref: customerId });
});

afterAll(async () => {
  await h?.close();
  if (h) removeDir(h.dataDir);
});

const window = (claim?: 'mine' | 'unclaimed' | { reviewer: string }) =>
  h.call('queue.window', {
    section: 'all',
    search: '',
    offset: 0,
    limit: 50,
    ...(claim ? { filters: { claim } } : {}),
  });

describe('a solo desk', () => {
  it('is its own lead, with no claims', async () => {
    expect(await h.call('team.me')).toEqual({
      mode: 'solo',
      reviewer: osUserName(),
      role: 'lead',
      claims: false,
      can: {
        reassign: true,
        takeOver: true,
        approve: true,
        exportNames: true,
        purgeImages: true,
        changeTeamSettings: true,
        viewTeam: true,
      },
    });
    expect(await h.call('claims.reviewers')).toEqual([{ login: osUserName(), role: 'lead', me: true }]);
  });

  it('takes, releases and takes over without claims, and has no next unclaimed case', async () => {
    expect(await h.call('claims.take', { customerId })).toEqual({ customerId, claim: null });
    expect(await h.call('claims.get', { customerId })).toEqual({ customerId, claim: null });
    expect(await h.call('claims.takeOver', { customerId, reason: 'mine anyway' })).toEqual({
      customerId,
      claim: null,
    });
    expect(await h.call('claims.release', { customerId })).toEqual({ customerId, claim: null });
    expect(await h.call('claims.next', {})).toEqual({ claim: null });
    expect(h.events.filter((e) => e.event.startsWith('claims.'))).toEqual([]);
  });

  it('has no one to reassign a case to and no team settings, and says so', async () => {
    await expect(h.call('claims.reassign', { customerId, to: 'ana', note: 'for you' })).rejects.toMatchObject(
      {
        code: 'SoloDesk',
        message:
          'This desk works alone: every case is yours, and there is no one to hand one to. Joining a team (Settings → Team) changes that.',
      },
    );
    await expect(h.call('team.settings')).rejects.toMatchObject({ code: 'SoloDesk' });
    await expect(h.call('team.updateSettings', { claimIdleMinutes: 5 })).rejects.toMatchObject({
      code: 'SoloDesk',
    });
  });

  it('has no team to overview, and says so rather than showing figures of one', async () => {
    await expect(h.call('team.overview')).rejects.toMatchObject({
      code: 'SoloDesk',
      message:
        'This desk works alone: there is no team whose work to overview. Joining a team (Settings → Team) changes that.',
    });
  });

  it('shows the whole queue as "Mine" (and its reviewer’s), nothing as unclaimed or another’s', async () => {
    const all = await window();
    expect(all.rows.map((row) => row.id)).toContain(customerId);
    expect(all.rows.every((row) => !('claimedBy' in row))).toBe(true);
    expect(await window('mine')).toEqual(all);
    expect(await window({ reviewer: osUserName() })).toEqual(all);
    expect((await window('unclaimed')).rows).toEqual([]);
    expect((await window({ reviewer: 'someone_else' })).total).toBe(0);
  });

  it('counts the queue’s work as this reviewer’s', async () => {
    const counts = await h.call('claims.counts');
    expect(counts.holders).toEqual([
      expect.objectContaining({
        holder: osUserName(),
        mine: true,
        waiting: expect.objectContaining({ document: 1 }),
      }),
    ]);
  });

  it('gives the case its link; no browser address without a host', async () => {
    expect(await h.call('case.link', { customerId })).toEqual({
      customerId,
      link: `vetted://case/${customerId}`,
      address: null,
    });
  });

  it('lets its reviewer export the queue with names in full, as before', async () => {
    const file = await h.call('queue.export', { section: 'all', search: '', revealReason: 'monthly report' });
    expect(file.count).toBeGreaterThan(0);
    const audit = await h.call('audit.window', {
      filter: { action: 'queue.exportNames' },
      offset: 0,
      limit: 5,
    });
    expect(audit.rows).toHaveLength(1);
  });
});
