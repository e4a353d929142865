// Claims from the team store into a desk's replica, live: a take, a take-over with its reason (opened with the
// team key, sealed again with the desk's), a release; each told to watchers with who held the case before.
import { afterEach, expect, it } from 'vitest';
import type { ClaimChange } from '#main/data/journal/claims.ts';
import { openJournal } from '#main/data/journal/index.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { startReplication } from '#main/team/journal/replication.ts';
import { journalFile } from '#test/main/data/journal/helpers.ts';
import { until } from '#test/support/poll.ts';
import { teamStore, writeClaim, writeCustomer } from '#test/support/team/team-changes.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

it('copies claims as they change, live, telling who held each case before', async () => {
  const store = await teamStore();
  cleanup.push(() => store.end());
  const local = openJournal({ file: journalFile(), dataKey: createFieldKey() });
  cleanup.push(() => local.close());
  await writeCustomer(store, { id: 'c-1' });
  await writeClaim(store, { customerId: 'c-1', holder: 'ana' });
  const replication = startReplication({
    pool: store.pool,
    cipher: store.cipher,
    local,
    log: createLogger(() => {}),
  });
  cleanup.push(() => replication.close());
  const seen: ClaimChange[] = [];
  replication.watch(({ claims }) => seen.push(...claims));
  await replication.catchUp();
  expect(await local.replica.claim('c-1')).toMatchObject({ holder: 'ana', how: 'take' });
  expect(seen.map(({ claim, before }) => [claim.holder, before])).toEqual([['ana', null]]);

  // Another desk's lead takes it over: NOTIFY brings it without anyone asking.
  await writeClaim(store, {
    customerId: 'c-1',
    holder: 'lee',
    how: 'takeOver',
    by: 'lee',
    note: 'Ana is off sick',
  });
  await until(() => seen.length === 2, 'the take-over to arrive');
  expect(seen[1]).toMatchObject({
    claim: { holder: 'lee', how: 'takeOver', note: 'Ana is off sick' },
    before: 'ana',
  });
  expect(await local.replica.claim('c-1')).toMatchObject({ holder: 'lee', note: 'Ana is off sick' });

  await writeClaim(store, { customerId: 'c-1', holder: null, by: 'lee' });
  await until(() => seen.length === 3, 'the release to arrive');
  expect(seen[2]).toMatchObject({ claim: { holder: null, how: 'release' }, before: 'lee' });
  const row = (await local.queue.window({ section: 'all', search: '', offset: 0, limit: 5 })).rows[0];
  expect(row).not.toHaveProperty('claimedBy');
});
