// The trends channel (main/features/trends/index.ts): "team" is a lead's, refused in words to a reviewer
// before the store is asked; the last 7, 30 or 90 days are counted back from today in the desk's time zone by
// the desk's clock; and on a whole solo desk: a range the contract does not offer is refused by its schema,
// "team" is refused (a solo desk has no team), and "mine" answers a point for every day.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LeadAction } from '#contract/roles.ts';
import { type Trends, TrendsSchema } from '#contract/trends.ts';
import type { DeskContext } from '#main/features/feature.ts';
import type { Roles } from '#main/features/team-interfaces/claims.ts';
import type { TrendsSource } from '#main/features/team-interfaces/trends.ts';
import { lastDays, trendsFeature } from '#main/features/trends/index.ts';
import { dayOf } from '#main/ground/calendar.ts';
import { type DeskHarness, removeDir, startDesk } from '#test/support/desk/desk-harness.ts';

const TARGETS = { retry: 12, document: 36, review: 60 };
const context = { settings: { get: () => ({ ageingTargets: TARGETS }) } } as unknown as DeskContext;
const rolesOf = (role: 'lead' | 'reviewer'): Roles => ({
  me: async () => ({
    mode: 'team',
    reviewer: role === 'lead' ? 'lee' : 'ana',
    role,
    claims: true,
    can: { viewTeam: role === 'lead' } as Record<LeadAction, boolean>,
  }),
});
// 23:30 on Sunday 1 November 2026 in New York (04:30 UTC on the 2nd: that Sunday lasts 25 hours).
const NOW = new Date('2026-11-02T04:30:00.000Z');

const feature = (role: 'lead' | 'reviewer') => {
  const source: TrendsSource = { read: vi.fn(async () => ({}) as Trends) };
  const { handlers } = trendsFeature(context, {
    source,
    roles: rolesOf(role),
    clock: () => NOW,
    timeZone: 'America/New_York',
  });
  return {
    read: (input: Parameters<(typeof handlers)['trends.read']>[0]) =>
      handlers['trends.read'](input, { host: 'browser' }),
    source,
  };
};

describe('the trends channel', () => {
  it('refuses "team" to a reviewer in words, before the store is asked', async () => {
    const { read, source } = feature('reviewer');
    await expect(read({ days: 30, scope: 'team' })).rejects.toMatchObject({
      code: 'LeadOnly',
      message: expect.stringContaining('Only a lead can see the Team screen'),
    });
    expect(source.read).not.toHaveBeenCalled();
  });

  it('asks the source for the last days up to today in the desk’s time zone, with this desk’s reviewer and targets', async () => {
    const { read, source } = feature('reviewer');
    await read({ days: 7, scope: 'mine' });
    expect(source.read).toHaveBeenCalledWith({
      scope: 'mine',
      from: '2026-10-26',
      to: '2026-11-01',
      reviewer: 'ana',
      targets: TARGETS,
      timeZone: 'America/New_York',
    });
    const lead = feature('lead');
    await lead.read({ days: 90, scope: 'team' });
    expect(lead.source.read).toHaveBeenCalledWith(
      expect.objectContaining({ scope: 'team', from: '2026-08-04', to: '2026-11-01', reviewer: 'lee' }),
    );
  });

  it('counts the range back from today, today included', () => {
    expect(lastDays(7, NOW, 'America/New_York')).toEqual({ from: '2026-10-26', to: '2026-11-01' });
    expect(lastDays(7, NOW, 'UTC')).toEqual({ from: '2026-10-27', to: '2026-11-02' });
    expect(lastDays(30, NOW, 'America/New_York')).toEqual({ from: '2026-10-03', to: '2026-11-01' });
    expect(lastDays(90, NOW, 'America/New_York')).toEqual({ from: '2026-08-04', to: '2026-11-01' });
    // Across the end of February, in a leap year.
    expect(lastDays(7, new Date('2028-03-02T12:00:00.000Z'), 'UTC')).toEqual({
      from: '2028-02-25',
      to: '2028-03-02',
    });
  });
});

describe('on a solo desk', () => {
  let h: DeskHarness;
  beforeAll(async () => {
    h = await startDesk();
  });
  afterAll(async () => {
    await h?.close();
    if (h) removeDir(h.dataDir);
  });

  it('refuses a range the contract does not offer', async () => {
    // @ts-expect-error: 8 days is no range the contract offers.
    await expect(h.call('trends.read', { days: 8, scope: 'mine' })).rejects.toMatchObject({
      code: 'BadInput',
    });
  });

  it('refuses the team’s trends in words: it has no team', async () => {
    await expect(h.call('trends.read', { days: 7, scope: 'team' })).rejects.toMatchObject({
      code: 'SoloDesk',
      message: expect.stringContaining('there is no team whose trends to show'),
    });
  });

  it('answers "mine" with a point for every day up to today, zeros on an empty journal', async () => {
    // The journal counts up to its own clock, the system's: today is the day of a moment around the call.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const before = new Date();
    const trends = TrendsSchema.parse(await h.call('trends.read', { days: 30, scope: 'mine' }));
    const after = new Date();
    expect(trends.days).toHaveLength(30);
    expect([dayOf(before, zone), dayOf(after, zone)]).toContain(trends.days.at(-1));
    expect(Date.parse(trends.at)).toBeGreaterThanOrEqual(before.getTime());
    expect(Date.parse(trends.at)).toBeLessThanOrEqual(after.getTime());
    expect(trends.backlog).toHaveLength(30 * 5);
    expect(trends.overdue.every((point) => point.count === 0)).toBe(true);
    expect(trends.closed).toEqual(trends.days.map((day) => ({ day, reviewer: trends.reviewer, count: 0 })));
  });
});
