// Two desks on one team store: what one writes the other reads; writes to one customer from both take
// turns (one history); change numbers commit in order; a unit of work is whole on both stores or on neither.
import { describe, expect, it } from 'vitest';
import { CHANGES_CHANNEL } from '#main/team/store/sql.ts';
import { serviceCustomer } from '#test/main/data/journal/helpers.ts';
import { until } from '#test/support/poll.ts';
import { connectTo, openDesk, teamStore } from '#test/support/team/team-journal.ts';

const PERSONAL = {
  address: { address1: '1 Main St', city: 'Springfield', state: 'IL', postalCode: '62701' },
  dateOfBirth: '1990-01-01',
  ssnLastFour: '1234',
};

describe('two desks on one team store', () => {
  it('reads on one desk what the other wrote', async () => {
    const store = await teamStore();
    const [a, b] = [await openDesk(store), await openDesk(store)];
    const { customer } = await a.journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'retry' }), {
      source: 'created',
    });
    await a.journal.customers.setPersonal('c-1', PERSONAL);
    expect(await b.journal.customers.get('c-1')).toEqual(customer);
    expect(await b.journal.customers.history('c-1')).toEqual(await a.journal.customers.history('c-1'));
    expect(await b.journal.customers.personal('c-1')).toEqual(PERSONAL);
    const moved = await b.journal.customers.upsert(serviceCustomer({ id: 'c-1', status: 'verified' }), {
      source: 'poll',
    });
    expect(moved).toMatchObject({ isNew: false, statusChanged: true });
    expect(await a.journal.customers.get('c-1')).toEqual(moved.customer);
  });

  it('records one consistent history when both desks record the same customer at once', async () => {
    const store = await teamStore();
    const [a, b] = [await openDesk(store), await openDesk(store)];
    const statuses = ['retry', 'document', 'verified', 'suspended'];
    const writes = Array.from({ length: 24 }, (_, i) => {
      const desk = i % 2 === 0 ? a : b;
      const status = statuses[Math.floor(i / 2) % statuses.length] ?? 'retry';
      return desk.journal.customers.upsert(serviceCustomer({ id: 'c-1', status }), { source: 'poll' });
    });
    const results = await Promise.all(writes);
    // Exactly one desk saw it first; every change the desks were told of is in the history, once.
    expect(results.filter((result) => result.isNew)).toHaveLength(1);
    const history = await a.journal.customers.history('c-1');
    expect(history).toHaveLength(results.filter((result) => result.statusChanged).length);
    for (const [i, change] of history.entries()) {
      if (i > 0) expect(change.status).not.toBe(history[i - 1]?.status);
    }
    expect((await b.journal.customers.get('c-1'))?.status).toBe(history.at(-1)?.status);
  });

  it('commits change numbers in increasing order, and tells each write its own once committed', async () => {
    const store = await teamStore();
    const listener = await connectTo(store.url);
    const notified: number[] = [];
    // Each write's customer row, announced at its commit (team store migration 11) with its change number.
    listener.on('notification', (message) => {
      const announced = JSON.parse(message.payload ?? '{}') as { table?: string; row?: { seq: number } };
      if (announced.table === 'customers' && announced.row) notified.push(announced.row.seq);
    });
    await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
    const committed: number[] = [];
    const onCommitted = async (seq: number) => {
      committed.push(seq);
    };
    const [a, b] = [await openDesk(store, { onCommitted }), await openDesk(store, { onCommitted })];
    const desk = (i: number) => (i % 2 === 0 ? a : b);
    // Seven customers, then 23 changes to them from both desks at once.
    await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        desk(i).journal.customers.upsert(serviceCustomer({ id: `c-${i}`, status: 'document' }), {
          source: 'poll',
        }),
      ),
    );
    await Promise.all(
      Array.from({ length: 23 }, (_, i) =>
        desk(i).journal.customers.setDocuments(`c-${i % 7}`, { pending: i + 1, note: null }),
      ),
    );
    await until(() => notified.length === 30, 'a notification for each write');
    // Each commit's NOTIFY arrives in commit order: its numbers must only increase.
    expect(notified).toEqual([...notified].sort((x, y) => x - y));
    expect(new Set(notified).size).toBe(30);
    expect([...committed].sort((x, y) => x - y)).toEqual(notified);
  });
});

describe('a unit of work on the team journal', () => {
  it('leaves neither store changed when its work fails', async () => {
    const store = await teamStore();
    const committed: number[] = [];
    const desk = await openDesk(store, { onCommitted: async (seq) => void committed.push(seq) });
    await expect(
      desk.journal.transaction(async (tx) => {
        await tx.drafts.insert({ form: { firstName: 'Ada' } });
        await tx.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
        throw new Error('the request failed');
      }),
    ).rejects.toThrow('the request failed');
    expect(await desk.journal.customers.get('c-1')).toBeUndefined();
    expect(await desk.journal.customers.history('c-1')).toEqual([]);
    expect(await desk.journal.drafts.list()).toEqual([]);
    expect(committed).toEqual([]);
  });

  it('leaves neither store changed when PostgreSQL refuses the commit', async () => {
    const store = await teamStore();
    const admin = await connectTo(store.url);
    // A check PostgreSQL makes only at COMMIT: the work itself succeeds, the commit fails.
    await admin.query(`CREATE FUNCTION vetted.refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = 'doomed' THEN RAISE EXCEPTION 'refused at commit'; END IF; RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT ON vetted.customers DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION vetted.refuse_doomed();`);
    const desk = await openDesk(store);
    await expect(
      desk.journal.transaction(async (tx) => {
        await tx.drafts.insert({ form: { firstName: 'Ada' } });
        await tx.customers.upsert(serviceCustomer({ id: 'doomed' }), { source: 'created' });
      }),
    ).rejects.toThrow('refused at commit');
    expect(await desk.journal.customers.get('doomed')).toBeUndefined();
    expect(await desk.journal.drafts.list()).toEqual([]);
    // The desk goes on working.
    await desk.journal.transaction((tx) =>
      tx.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'poll' }),
    );
    expect(await desk.journal.customers.get('c-1')).toBeDefined();
  });

  it('commits both stores, then tells the replica the last change number it drew; a failed nested unit undoes only itself', async () => {
    const store = await teamStore();
    const committed: number[] = [];
    const desk = await openDesk(store, { onCommitted: async (seq) => void committed.push(seq) });
    const draft = await desk.journal.transaction(async (tx) => {
      await tx.customers.upsert(serviceCustomer({ id: 'kept' }), { source: 'created' });
      await expect(
        tx.transaction(async (inner) => {
          await inner.customers.upsert(serviceCustomer({ id: 'undone' }), { source: 'created' });
          await inner.drafts.insert({ form: { firstName: 'Undone' } });
          throw new Error('inner failed');
        }),
      ).rejects.toThrow('inner failed');
      return tx.drafts.insert({ form: { firstName: 'Kept' } });
    });
    expect(await desk.journal.customers.get('undone')).toBeUndefined();
    expect(await desk.journal.customers.get('kept')).toBeDefined();
    expect((await desk.journal.drafts.list()).map((summary) => summary.id)).toEqual([draft.id]);
    const admin = await connectTo(store.url);
    const { rows } = await admin.query<{ seq: string }>(`SELECT seq FROM vetted.customers WHERE id = 'kept'`);
    // Only the number of what was committed: the undone customer's was rolled back with it.
    expect(committed).toEqual([Number(rows[0]?.seq)]);
  });
});

describe('a unit of work whose database part failed quietly', () => {
  it('is rolled back on both stores even if the work caught the database error and went on', async () => {
    const store = await teamStore();
    const admin = await connectTo(store.url);
    await admin.query(`ALTER TABLE vetted.customers ADD CONSTRAINT refuse_c2 CHECK (id <> 'c-2')`);
    const desk = await openDesk(store);
    await expect(
      desk.journal.transaction(async (tx) => {
        await tx.drafts.insert({ form: { firstName: 'Ada' } });
        await tx.customers.upsert(serviceCustomer({ id: 'c-1' }), { source: 'created' });
        // A statement PostgreSQL refuses: the transaction is aborted, whatever the work does next.
        await tx.customers
          .upsert(serviceCustomer({ id: 'c-2' }), { source: 'created' })
          .catch(() => undefined);
      }),
    ).rejects.toThrow('The team store rolled the transaction back');
    expect(await desk.journal.customers.get('c-1')).toBeUndefined();
    expect(await desk.journal.drafts.list()).toEqual([]);
  });

  it('gives its session back when the work fails before its first statement has begun the transaction', async () => {
    const store = await teamStore();
    const admin = await connectTo(store.url);
    const desk = await openDesk(store);
    await expect(
      desk.journal.transaction(async (tx) => {
        // Not waited for: the work fails while the unit is still connecting and sending BEGIN.
        tx.customers.upsert(serviceCustomer({ id: 'c-9' }), { source: 'created' }).catch(() => undefined);
        throw new Error('the work gave up');
      }),
    ).rejects.toThrow('the work gave up');
    // Rolled back and back in the pool: no session of the store is left open inside a transaction.
    await until(async () => {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
      );
      return rows[0]?.n === 0;
    }, 'no session left idle in a transaction');
    expect(await desk.journal.customers.get('c-9')).toBeUndefined();
  });
});
