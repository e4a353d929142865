// Team store migration 13 (#40): the idle lock's team maximum, 15 minutes unless a lead changes it, within
// 1 to 240 whole minutes; the store refuses anything else.
import { describe, expect, test } from 'vitest';
import { LOCK_MAXIMUM } from '#main/team/store/migrations/13-lock-maximum.ts';
import { applyMigration, storeAt, versionBefore } from './at-version.ts';

describe('team store migration 13: the idle lock’s team maximum', () => {
  test('seeds 15 minutes and refuses a value out of 1 to 240 whole minutes', async () => {
    const client = await storeAt(versionBefore(LOCK_MAXIMUM.version));
    await applyMigration(client, LOCK_MAXIMUM.version);
    const read = async () =>
      (await client.query(`SELECT value FROM vetted.team_settings WHERE name = 'lock_idle_max_minutes'`))
        .rows;
    expect(await read()).toEqual([{ value: 15 }]);
    const set = (value: string) =>
      client.query(`UPDATE vetted.team_settings SET value = $1::jsonb WHERE name = 'lock_idle_max_minutes'`, [
        value,
      ]);
    for (const wrong of ['0', '241', '2.5', '"15"', 'null']) {
      await expect(set(wrong)).rejects.toMatchObject({ code: '23514' });
    }
    // Outside a lead's function the audit trigger would refuse the commit; the check itself accepts 240.
    await client.query('BEGIN');
    await client.query('SET CONSTRAINTS ALL IMMEDIATE');
    await expect(set('240')).rejects.toMatchObject({ hint: 'vetted:unaudited' });
    await client.query('ROLLBACK');
    expect(await read()).toEqual([{ value: 15 }]);
  });
});
