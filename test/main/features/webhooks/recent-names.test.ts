import { describe, expect, it } from 'vitest';
import type { QueueRow } from '#contract/queue.ts';
import type { Journal } from '#main/data/journal/index.ts';
import { createRecentNames } from '#main/features/webhooks/recent-names.ts';
import { createEventHub } from '#main/ground/event-hub.ts';

const row = (name: string): QueueRow => ({
  id: 'c-1',
  name,
  email: 'ada@example.com',
  status: 'verified',
  section: 'verified',
  statusSince: '2026-03-01T10:00:00.000Z',
  gone: false,
  note: null,
});

/** Names for pushed event rows: read once per customer and window, replaced by every row update. */
describe('recent names', () => {
  const setup = () => {
    const stored = new Map([
      ['c-1', 'Ada Lovelace'],
      ['c-2', 'Grace Hopper'],
    ]);
    const reads: string[] = [];
    const journal = {
      customers: {
        async get(id: string) {
          reads.push(id);
          const name = stored.get(id);
          return name === undefined ? undefined : { id, name };
        },
      },
    } as unknown as Journal;
    let clock = 0;
    const hub = createEventHub();
    const names = createRecentNames(journal, hub, { ttlMs: 1_000, now: () => clock });
    const of = async (...ids: Array<string | null>) => {
      const name = await names.of(ids.map((customerId) => ({ customerId })));
      return ids.map(name);
    };
    return { stored, reads, hub, names, of, advance: (ms: number) => (clock += ms) };
  };

  it('reads each customer once within the window, and again after it', async () => {
    const { reads, of, advance, stored } = setup();
    expect(await of('c-1', 'c-1', 'c-2', null, 'c-9')).toEqual([
      'Ada Lovelace',
      'Ada Lovelace',
      'Grace Hopper',
      null,
      null,
    ]);
    expect(reads).toEqual(['c-1', 'c-2', 'c-9']);
    stored.set('c-1', 'Ada King');
    advance(999);
    expect(await of('c-1')).toEqual(['Ada Lovelace']);
    expect(reads).toHaveLength(3);
    advance(1);
    expect(await of('c-1')).toEqual(['Ada King']);
    expect(reads).toEqual(['c-1', 'c-2', 'c-9', 'c-1']);
  });

  it('takes a pushed row update at once, and stops following them when closed', async () => {
    const { reads, of, hub, names } = setup();
    await of('c-1');
    hub.emit('customer.updated', row('Ada Byron'));
    expect(await of('c-1')).toEqual(['Ada Byron']);
    expect(reads).toEqual(['c-1']);
    names.close();
    hub.emit('customer.updated', row('Someone Else'));
    expect(await of('c-1')).toEqual(['Ada Byron']);
  });
});
