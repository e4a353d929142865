// A solo desk's trends (main/variant/local.ts' soloTrends over the journal's own SQL, main/data/journal/
// trends.ts): the team's trends refused in words without asking the journal; audit entries written before the
// journal recorded actors ('') counted as the desk's reviewer's. That the journal's figures are the team
// store's for the same history is team-trends.test.ts' (it runs both on one world).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import type { TrendsQuery } from '#main/features/team-interfaces/trends.ts';
import { soloTrends } from '#main/variant/local.ts';
import {
  TRENDS_EXPECTED,
  TRENDS_TARGETS,
  TRENDS_WEEK,
  TRENDS_ZONE,
  trendsInJournal,
} from '#test/support/trends-world.ts';

const ask = (scope: 'team' | 'mine', reviewer: string): TrendsQuery => ({
  scope,
  ...TRENDS_WEEK,
  reviewer,
  targets: TRENDS_TARGETS,
  timeZone: TRENDS_ZONE,
});

let named: SqliteJournal;
let unnamed: SqliteJournal;
beforeAll(async () => {
  named = await trendsInJournal({ ana: 'ana', ben: 'ben', lee: 'lee' });
  // Ana's entries as a journal kept them before it recorded who acted.
  unnamed = await trendsInJournal({ ana: '', ben: 'ben', lee: 'lee' });
});
afterAll(async () => {
  await named?.close();
  await unnamed?.close();
});

describe('a solo desk’s trends', () => {
  it('refuses the team’s in words, without asking the journal', async () => {
    const read = vi.spyOn(named.trends, 'read');
    await expect(soloTrends(named).read(ask('team', 'ana'))).rejects.toMatchObject({
      code: 'SoloDesk',
      message: expect.stringContaining('there is no team whose trends to show'),
    });
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
  });

  it('counts its reviewer’s work day by day, every open case theirs', async () => {
    const trends = await soloTrends(named).read(ask('mine', 'ana'));
    expect(trends.days).toEqual(TRENDS_EXPECTED.days);
    expect(trends.overdue).toEqual(TRENDS_EXPECTED.overdue.all);
    expect(trends.closed.map((point) => point.count)).toEqual([0, 0, 0, 1, 0, 1, 0]);
  });

  it('counts entries with no recorded actor as the desk’s reviewer’s', async () => {
    const bearingHerName = await soloTrends(named).read(ask('mine', 'ana'));
    const fromBefore = await soloTrends(unnamed).read(ask('mine', 'ana'));
    expect(fromBefore).toEqual(bearingHerName);
  });
});
