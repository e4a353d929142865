// Claims in the team store (migration 7), called as the desks call them (the desk's claim store, which
// appends each change's audit entry in the change's transaction), each reviewer on their own login: one
// holder per case whatever the contention, release, idle expiry by the store's clock (audited),
// auto-assignment under contention, reassign and take-over by a lead.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  type ClaimsReviewer,
  claimsTeam,
  holderOf,
  reviewersAndALead,
  take,
} from '#test/support/team/claims-support.ts';

describe('taking a case', () => {
  it('gives a case to exactly one of many reviewers taking it at the same instant; the others learn who', async () => {
    const team = await claimsTeam();
    const reviewers: ClaimsReviewer[] = [];
    for (let i = 0; i < 6; i++) reviewers.push(await team.reviewer(`r${i}`));
    const cases = await team.addCustomers(5);
    // Every reviewer takes every case, three times over, all at once.
    const attempts = cases.flatMap((customerId) =>
      reviewers.flatMap((reviewer) =>
        [1, 2, 3].map(async () => ({ customerId, reviewer, ...(await take(reviewer, customerId)) })),
      ),
    );
    const outcomes = await Promise.all(attempts);
    for (const customerId of cases) {
      const mine = outcomes.filter((o) => o.customerId === customerId);
      const won = mine.filter((o) => o.outcome === 'taken');
      expect(won).toHaveLength(1);
      const winner = won[0]!.reviewer.name;
      expect(await holderOf(team, customerId)).toBe(winner);
      for (const other of mine.filter((o) => o !== won[0])) {
        // The winner's own later attempts find it theirs; everyone else is told who holds it.
        expect(other).toMatchObject({
          outcome: other.reviewer.name === winner ? 'held' : 'refused',
          holder: winner,
        });
      }
    }
    expect(await team.auditOf('claim.take')).toHaveLength(cases.length);
  });

  it('lets the holder take it again (its idle time starts again) and release it; nobody else may release it', async () => {
    const team = await claimsTeam();
    const [ana, ben] = [await team.reviewer('ana'), await team.reviewer('ben')];
    const [id] = await team.addCustomers(1);
    expect(await take(ana, id!)).toEqual({ outcome: 'taken', holder: ana.name });
    await team.ageClaim(id!, 10);
    expect(await take(ana, id!, 'action')).toEqual({ outcome: 'held', holder: ana.name });
    const { rows } = await team.admin.query(
      `SELECT expires_at - touched_at AS idle, now() - touched_at < interval '1 minute' AS fresh
       FROM vetted.claims WHERE customer_id = $1`,
      [id],
    );
    expect(rows[0]).toMatchObject({ idle: { minutes: 30 }, fresh: true });

    const release = (who: ClaimsReviewer) => who.store.release(id!);
    expect(await release(ben)).toMatchObject({ outcome: 'refused', holder: ana.name });
    expect(await release(ana)).toMatchObject({ outcome: 'released', holder: null });
    expect(await holderOf(team, id!)).toBeNull();
    expect(await take(ben, id!)).toEqual({ outcome: 'taken', holder: ben.name });
    expect((await team.auditOf('claim.release')).map((row) => row.actor)).toEqual([ana.name]);
  });

  it('refuses a case the store does not know', async () => {
    const team = await claimsTeam();
    const ana = await team.reviewer('ana');
    await expect(take(ana, 'nobody')).rejects.toMatchObject({
      code: 'NotFound',
      message: 'Vetted does not know this customer. Add it by its id first.',
    });
  });
});

describe('idle expiry', () => {
  it('ends a claim idle past the team’s setting at the next sweep, audited once, by the store’s clock', async () => {
    const team = await claimsTeam();
    const [ana, lee] = [await team.reviewer('ana'), await team.reviewer('lee')];
    await team.setRole(lee.name, 'lead');
    const [first, second] = await team.addCustomers(2);
    await take(ana, first!);
    await take(ana, second!);
    const sweep = () => lee.store.expire();
    await team.ageClaim(first!, 29);
    expect(await sweep()).toBe(0);
    await team.ageClaim(first!, 1);
    expect(await sweep()).toBe(1);
    expect(await sweep()).toBe(0);
    expect(await holderOf(team, first!)).toBeNull();
    expect(await holderOf(team, second!)).toBe(ana.name);
    const expired = await team.auditOf('claim.expire');
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ actor: lee.name, customer_id: first });
    expect(expired[0]?.detail).toMatch(new RegExp(`^${ana.name}'s claim, idle since \\d{4}-`));

    // A lead shortens the idle time: claims taken from then on last that long.
    await lee.store.setSetting('claim_idle_minutes', 5);
    await take(ana, first!);
    const { rows } = await team.admin.query(
      'SELECT expires_at - touched_at AS idle FROM vetted.claims WHERE customer_id = $1',
      [first],
    );
    expect(rows[0]?.idle).toMatchObject({ minutes: 5 });
    expect((await team.auditOf('team.setting'))[0]).toMatchObject({
      actor: lee.name,
      detail: 'claim_idle_minutes: 30 → 5',
    });
  });

  it('appends one entry per claim a sweep ends, in one chain, and a touch waits for no one’s audit entry', async () => {
    const team = await claimsTeam();
    const [ana, lee] = [await team.reviewer('ana'), await team.reviewer('lee')];
    await team.setRole(lee.name, 'lead');
    const cases = await team.addCustomers(4);
    for (const id of cases) await take(ana, id);
    for (const id of cases.slice(0, 3)) await team.ageClaim(id, 31);
    expect(await lee.store.expire()).toBe(3);
    const { rows } = await team.admin.query(
      'SELECT seq::int, action, actor, customer_id, prev_hash, chain_hash FROM vetted.audit_log ORDER BY seq',
    );
    for (const [i, row] of rows.entries()) {
      if (i > 0) expect(row).toMatchObject({ seq: rows[i - 1].seq + 1, prev_hash: rows[i - 1].chain_hash });
    }
    expect(rows.slice(-3)).toMatchObject(
      cases.slice(0, 3).map((id) => ({ action: 'claim.expire', actor: lee.name, customer_id: id })),
    );

    // Someone holds the chain's head (an entry on its way): touching one's own claim appends nothing, so it
    // does not wait for them.
    const holder = new pg.Client({ connectionString: team.store.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM vetted.audit_chain_head()');
      expect(await take(ana, cases[3]!, 'action')).toEqual({ outcome: 'held', holder: ana.name });
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });

  it('lets another reviewer take a case whose claim ran out, ending (and auditing) the old one first', async () => {
    const team = await claimsTeam();
    const [ana, ben] = [await team.reviewer('ana'), await team.reviewer('ben')];
    const [id] = await team.addCustomers(1);
    await take(ana, id!);
    expect(await take(ben, id!)).toEqual({ outcome: 'refused', holder: ana.name });
    await team.ageClaim(id!, 31);
    expect(await take(ben, id!)).toEqual({ outcome: 'taken', holder: ben.name });
    expect(await team.auditOf('claim.expire')).toMatchObject([{ actor: ben.name, customer_id: id }]);
  });
});

describe('the next unclaimed case', () => {
  const next = async (who: ClaimsReviewer, sections = ['retry', 'document', 'review']) =>
    (await who.store.next(sections))?.customerId ?? null;

  it('gives 20 reviewers calling at once 20 different cases, the longest waiting first', async () => {
    const team = await claimsTeam();
    const reviewers: ClaimsReviewer[] = [];
    for (let i = 0; i < 4; i++) reviewers.push(await team.reviewer(`n${i}`));
    const cases = await team.addCustomers(30);
    await team.addCustomers(3, 'verified', 100);
    await take(reviewers[0]!, 'c-2');
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => next(reviewers[i % 4]!)));
    expect(new Set(got).size).toBe(20);
    // c-2 was held: the 20 longest-waiting others, none of them verified (not in the sections asked for).
    expect([...got].sort()).toEqual(
      cases
        .filter((id) => id !== 'c-2')
        .slice(0, 20)
        .sort(),
    );
  });

  it('gives each case once when more callers than cases call, and null to the rest', async () => {
    const team = await claimsTeam();
    const [ana, ben] = [await team.reviewer('ana'), await team.reviewer('ben')];
    await team.addCustomers(5, 'retry');
    const got = await Promise.all(Array.from({ length: 20 }, (_, i) => next(i % 2 ? ana : ben)));
    const taken = got.filter((id): id is string => id !== null);
    expect(taken.sort()).toEqual(['c-1', 'c-2', 'c-3', 'c-4', 'c-5']);
    expect(got.filter((id) => id === null)).toHaveLength(15);
    expect(await next(ana, ['retry'])).toBeNull();
  });

  it('counts a claim that ran out as unclaimed', async () => {
    const team = await claimsTeam();
    const [ana, ben] = [await team.reviewer('ana'), await team.reviewer('ben')];
    await team.addCustomers(2);
    await take(ana, 'c-1');
    expect(await next(ben)).toBe('c-2');
    await team.ageClaim('c-1', 45);
    expect(await next(ben)).toBe('c-1');
    expect(await holderOf(team, 'c-1')).toBe(ben.name);
  });
});

describe('reassign and take over (a lead’s)', () => {
  it('lets a lead reassign a case to a reviewer with a note, and take a case over with a reason', async () => {
    const { team, ana, ben, lee } = await reviewersAndALead();
    const [id] = await team.addCustomers(1);
    await take(ana, id!);
    const reassign = await lee.store.reassign(id!, ben.name, 'sealed-note');
    expect(reassign).toMatchObject({ outcome: 'reassigned', holder: ben.name });
    const row = await team.admin.query('SELECT holder, how, changed_by, note FROM vetted.claims');
    expect(row.rows[0]).toEqual({
      holder: ben.name,
      how: 'reassign',
      changed_by: lee.name,
      note: 'sealed-note',
    });

    const over = await lee.store.takeOver(id!, 'sealed-reason');
    expect(over).toMatchObject({ outcome: 'taken', holder: lee.name });
    expect(await team.auditOf('claim.reassign')).toMatchObject([
      { actor: lee.name, detail: `from ${ana.name} to ${ben.name}` },
    ]);
    expect(await team.auditOf('claim.takeOver')).toMatchObject([
      { actor: lee.name, detail: `from ${ben.name}` },
    ]);
  });

  it('refuses a reassignment to someone who is not a reviewer of the team', async () => {
    const team = await claimsTeam();
    const lee = await team.reviewer('lee');
    await team.setRole(lee.name, 'lead');
    const [id] = await team.addCustomers(1);
    await expect(lee.store.reassign(id!, 'postgres', 'n')).rejects.toMatchObject({
      code: 'NoSuchReviewer',
      message: 'There is no reviewer “postgres” in this team.',
    });
  });
});
