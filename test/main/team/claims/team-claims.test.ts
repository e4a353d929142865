// A team desk's claims (main/team/claims/) on a real team store, each reviewer on their own login, with the
// desk's replica following the store: writes resolve once the replica holds them, the store's refusals read
// as the desk's words, the minute's sweep is the test's to run, and notices go to whom they concern.
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaseClaim, ClaimNotice } from '#contract/claims.ts';
import { openJournal } from '#main/data/journal/index.ts';
import type { Claims } from '#main/features/team-interfaces/claims.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { noticeFor, SWEEP_EVERY_MS, teamClaims } from '#main/team/claims/team-claims.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { loadTeamKeys } from '#main/team/keys/key-ring.ts';
import { teamClientConfig } from '#main/team/store/pool.ts';
import { journalFile } from '#test/main/data/journal/helpers.ts';
import { until } from '#test/support/poll.ts';
import { type ClaimsReviewer, type ClaimsTeam, claimsTeam } from '#test/support/team/claims-support.ts';
import { writeCustomer } from '#test/support/team/team-changes.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface ClaimsDesk {
  claims: Claims;
  changed: CaseClaim[];
  notices: ClaimNotice[];
  /** Runs the sweep the desk would run every minute. */
  sweep(): void;
}

/** A reviewer's desk: a local journal following the store, and the team's claims on both. */
function deskOf(reviewer: ClaimsReviewer): ClaimsDesk {
  const local = openJournal({ file: journalFile(), dataKey: createFieldKey() });
  cleanup.push(() => local.close());
  const { cipher } = reviewer.keys;
  const log = createLogger(() => {});
  const replication = startReplication({
    pool: reviewer.pool,
    connection: teamClientConfig(reviewer.connection, reviewer.password),
    cipher,
    local,
    log,
  });
  cleanup.push(() => replication.close());
  let sweep: (() => void) | null = null;
  const claims = teamClaims({
    store: reviewer.store,
    replication,
    local,
    cipher,
    login: reviewer.name,
    log,
    every(ms, run) {
      expect(ms).toBe(SWEEP_EVERY_MS);
      sweep = run;
      return () => {
        sweep = null;
      };
    },
  });
  cleanup.push(() => claims.close());
  const desk: ClaimsDesk = { claims, changed: [], notices: [], sweep: () => sweep?.() };
  claims.watch({ changed: (c) => desk.changed.push(c), notice: (n) => desk.notices.push(n) });
  return desk;
}

/** Customers sealed with the team key, written as another desk would. */
async function customers(team: ClaimsTeam, key: Buffer, ids: string[]): Promise<void> {
  const pool = new pg.Pool({ connectionString: team.store.url, max: 1 });
  try {
    const store = {
      url: team.store.url,
      pool,
      teamKey: key,
      cipher: (await loadTeamKeys(pool, key)).cipher,
      end: () => pool.end(),
    };
    for (const id of ids) await writeCustomer(store, { id });
  } finally {
    await pool.end();
  }
}

describe('a team desk’s claims', () => {
  it('resolves a take once the replica holds it, and names the holder when another has it', async () => {
    const team = await claimsTeam();
    const [ana, ben] = [await team.reviewer('ana'), await team.reviewer('ben')];
    await customers(team, ana.teamKey, ['c-1']);
    const [anaDesk, benDesk] = [deskOf(ana), deskOf(ben)];
    expect(await anaDesk.claims.take('c-1')).toMatchObject({ holder: ana.name, mine: true, how: 'take' });
    await expect(benDesk.claims.take('c-1')).rejects.toMatchObject({
      code: 'ClaimedByOther',
      message: `Only ${ana.name} can change this case on the service while they hold it. Ask them, or a lead, to hand it to you.`,
    });
    await expect(benDesk.claims.beforeChange('c-1')).rejects.toMatchObject({ code: 'ClaimedByOther' });
    expect(await benDesk.claims.get('c-1')).toMatchObject({ holder: ana.name, mine: false });
    await anaDesk.claims.beforeChange('c-1');
    expect(await anaDesk.claims.release('c-1')).toBeNull();
    await until(
      () => benDesk.changed.some((c) => c.customerId === 'c-1' && c.claim === null),
      'Ben to see it free',
    );
    await benDesk.claims.beforeChange('c-1');
    expect(await benDesk.claims.get('c-1')).toMatchObject({ holder: ben.name, how: 'action' });
  });

  it('ends an idle claim at the minute’s sweep, audited, and tells its holder', async () => {
    const team = await claimsTeam();
    const ana = await team.reviewer('ana');
    await customers(team, ana.teamKey, ['c-1']);
    const desk = deskOf(ana);
    await desk.claims.take('c-1');
    await team.ageClaim('c-1', 31);
    desk.sweep();
    await until(() => desk.notices.length > 0, 'Ana told her claim ended');
    expect(desk.notices).toEqual([
      {
        customerId: 'c-1',
        kind: 'expired',
        by: ana.name,
        note: null,
        text: 'Your claim on a case ended: it was idle for longer than the team allows.',
      },
    ]);
    expect(await desk.claims.get('c-1')).toBeNull();
    expect(await team.auditOf('claim.expire')).toHaveLength(1);
  });

  it('seals a reassignment’s note in the store and tells the reviewer given the case', async () => {
    const team = await claimsTeam();
    const [ana, lee] = [await team.reviewer('ana'), await team.reviewer('lee')];
    await team.setRole(lee.name, 'lead');
    await customers(team, ana.teamKey, ['c-1']);
    const [anaDesk, leeDesk] = [deskOf(ana), deskOf(lee)];
    expect(await leeDesk.claims.reassign('c-1', ana.name, 'Call Ms Okafor back')).toMatchObject({
      holder: ana.name,
      mine: false,
      how: 'reassign',
      by: lee.name,
      note: 'Call Ms Okafor back',
    });
    await until(() => anaDesk.notices.length > 0, 'Ana told');
    expect(anaDesk.notices[0]).toMatchObject({
      kind: 'reassignedToYou',
      by: lee.name,
      note: 'Call Ms Okafor back',
    });
    const { rows } = await team.admin.query('SELECT note FROM vetted.claims');
    expect(rows[0]?.note).not.toContain('Okafor');
  });

  it('reads the store’s own refusals in the desk’s words: a lead’s action, a reviewer not in the team', async () => {
    const team = await claimsTeam();
    const [ana, lee] = [await team.reviewer('ana'), await team.reviewer('lee')];
    await team.setRole(lee.name, 'lead');
    await customers(team, ana.teamKey, ['c-1']);
    // The desk's own check is the feature's (main/features/claims/): called straight, the store is the one refusing.
    await expect(deskOf(ana).claims.takeOver('c-1', 'mine now')).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringMatching(/^Only a lead can take over a case/),
    });
    await expect(deskOf(lee).claims.reassign('c-1', 'nobody_here', 'note')).rejects.toMatchObject({
      code: 'NoSuchReviewer',
      message: 'There is no reviewer “nobody_here” in this team.',
    });
    await expect(deskOf(lee).claims.take('c-404')).rejects.toMatchObject({ code: 'NotFound' });
  });

  it('resolves the queue’s claim filter to this reviewer, nobody, or the one named', async () => {
    const team = await claimsTeam();
    const ana = await team.reviewer('ana');
    const { claims } = deskOf(ana);
    expect(claims.scope(undefined)).toBeUndefined();
    expect(claims.scope('mine')).toEqual({ holder: ana.name });
    expect(claims.scope('unclaimed')).toEqual({ unclaimed: true });
    expect(claims.scope({ reviewer: 'ben' })).toEqual({ holder: 'ben' });
  });
});

describe('who is told of a claim change', () => {
  const change = (holder: string | null, how: string, before: string | null, note: string | null = null) => ({
    claim: {
      seq: 9,
      customerId: 'c-1',
      holder,
      since: holder ? '2026-03-01T10:00:00.000Z' : null,
      how: how as never,
      changedBy: 'lee',
      changedAt: '2026-03-01T10:00:00.000Z',
      note,
    },
    before,
  });

  it('tells the previous holder of a take-over, a reassignment away and an expiry; not of their own release', () => {
    expect(noticeFor(change('lee', 'takeOver', 'ana', 'urgent'), 'ana')).toMatchObject({
      kind: 'takenOver',
      text: 'lee took over a case you held. Reason: urgent',
    });
    expect(noticeFor(change('ben', 'reassign', 'ana'), 'ana')).toMatchObject({ kind: 'reassignedAway' });
    expect(noticeFor(change(null, 'expire', 'ana'), 'ana')).toMatchObject({ kind: 'expired' });
    expect(noticeFor(change('ben', 'take', 'ana'), 'ana')).toMatchObject({ kind: 'expired' });
    expect(noticeFor(change(null, 'release', 'ana'), 'ana')).toBeNull();
    // The lead reassigning their own case away is not told of what they did.
    expect(noticeFor(change('ben', 'reassign', 'lee'), 'lee')).toBeNull();
  });

  it('tells the reviewer given a case, and nobody else', () => {
    expect(noticeFor(change('ana', 'reassign', 'ben'), 'ana')).toMatchObject({ kind: 'reassignedToYou' });
    expect(noticeFor(change('ben', 'reassign', null), 'ana')).toBeNull();
    expect(noticeFor(change('ana', 'take', null), 'ana')).toBeNull();
    expect(noticeFor(change('lee', 'takeOver', 'ben'), 'ana')).toBeNull();
  });
});
