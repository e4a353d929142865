import { describe, expect, it } from 'vitest';
import type { EventsApi, ServiceEvent } from '#main/data/service/index.ts';
import { catchUpEvents } from '#main/features/webhooks/catch-up.ts';
import type { Ingest } from '#main/features/webhooks/ingest.ts';

const event = (n: number): ServiceEvent => ({
  _links: {},
  id: `e-${n}`,
  created: new Date(Date.UTC(2026, 2, 1, 10, n)).toISOString(),
  topic: 'customer_created',
  resourceId: `c-${n}`,
});

/** The service's events, newest first (e-30 … e-1), and what was fetched. */
function service(count: number) {
  const all = Array.from({ length: count }, (_, i) => event(count - i));
  const offsets: number[] = [];
  const events: EventsApi = {
    async list({ limit = 100, offset = 0 }) {
      offsets.push(offset);
      return { events: all.slice(offset, offset + limit), total: all.length };
    },
    get: async () => {
      throw new Error('not used');
    },
  };
  const recorded: string[] = [];
  const ingest: Ingest = {
    deliver: async () => ({ status: 500, body: {} }),
    recorded: () => {},
    async recordFetched(fetched) {
      recorded.push(...fetched.map((e) => e.id));
      return fetched.length;
    },
  };
  return { events, ingest, offsets, recorded };
}

describe('catching up: paging back through GET /events', () => {
  it('stops at the newest event the journal already had, recording only those above it', async () => {
    const s = service(30);
    const known = new Set(['e-12', 'e-11', 'e-5']);
    const pass = await catchUpEvents({ ...s, pageSize: 10, knownBefore: (id) => known.has(id) });
    expect(pass).toEqual({ recorded: 18, interrupted: false });
    expect(s.recorded).toEqual(Array.from({ length: 18 }, (_, i) => `e-${30 - i}`));
    expect(s.offsets).toEqual([0, 10]);
  });

  it('takes everything the service keeps when the journal has none of it', async () => {
    const s = service(25);
    const pass = await catchUpEvents({ ...s, pageSize: 10, knownBefore: () => false });
    expect(pass.recorded).toBe(25);
    expect(s.offsets).toEqual([0, 10, 20]);
  });

  it('stops between pages when the desk is closing', async () => {
    const s = service(25);
    let pages = 0;
    const pass = await catchUpEvents({
      ...s,
      pageSize: 10,
      knownBefore: () => false,
      onProgress: () => pages++,
      stopped: () => pages >= 1,
    });
    expect(pass).toEqual({ recorded: 10, interrupted: true });
  });

  it('stops at the service’s 30-day retention, not at the end of a longer history', async () => {
    // One event a day for a year, newest first: nothing older than 31 days before the newest is read.
    const days = Array.from({ length: 365 }, (_, i) => ({
      ...event(i),
      id: `d-${i}`,
      created: new Date(Date.UTC(2026, 10, 23) - i * 86_400_000).toISOString(),
    }));
    const offsets: number[] = [];
    const s = service(0);
    const events: EventsApi = {
      async list({ limit = 100, offset = 0 }) {
        offsets.push(offset);
        return { events: days.slice(offset, offset + limit), total: days.length };
      },
      get: s.events.get,
    };
    const pass = await catchUpEvents({ events, ingest: s.ingest, pageSize: 10, knownBefore: () => false });
    expect(pass.recorded).toBe(32);
    expect(offsets).toEqual([0, 10, 20, 30]);
  });
});
