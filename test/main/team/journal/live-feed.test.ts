// When a desk may apply what the store announces as it comes, and when it must read the store (live-feed.ts).
import { describe, expect, it } from 'vitest';
import { notePlace } from '#main/data/journal/notes.ts';
import { personalCipher } from '#main/data/journal/personal.ts';
import type { ReplicaChanges } from '#main/data/journal/replica.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { KEEP_MAX, liveFeed } from '#main/team/journal/live-feed.ts';
import { until } from '#test/support/poll.ts';

const cipher = personalCipher(createFieldKey());
const note = (seq: number) =>
  JSON.stringify({
    table: 'notes',
    row: {
      seq,
      customer_id: 'c-1',
      at: '2026-03-01T09:10:00.123456+00:00',
      author: 'ana',
      body: cipher.seal(notePlace(seq), `note ${seq}`),
      brought_from: null,
    },
  });

function feedOn() {
  const applied: ReplicaChanges[] = [];
  const asked: string[] = [];
  const lines: string[] = [];
  const state = { listening: true, catchingUp: false };
  /** Markers sent through the "store": the test decides when each comes back. */
  const sent: string[] = [];
  const feed = liveFeed({
    cipher,
    local: {
      replica: {
        applyChanges: async (changes: ReplicaChanges) => {
          const seqs = (changes.notes ?? []).map((n) => n.seq);
          if (seqs.includes(13)) throw new Error('the replica refused note 13');
          applied.push(changes);
          return { lastSeq: Math.max(0, ...seqs), customerIds: ['c-1'] };
        },
      } as never,
    },
    listening: () => state.listening,
    catchingUp: () => state.catchingUp,
    readStore: (why) => asked.push(why),
    applied: () => undefined,
    sendMarker: async (payload) => {
      sent.push(payload);
    },
    log: createLogger((line) => lines.push(line)),
  });
  return { feed, applied, asked, lines, state, sent };
}

const seqsOf = (applied: ReplicaChanges[]) => applied.flatMap((c) => (c.notes ?? []).map((n) => n.seq));

describe('a desk’s live feed', () => {
  it('keeps what it hears while catching up and applies it after; then applies as it hears', async () => {
    const { feed, applied, asked, state } = feedOn();
    feed.listening();
    state.catchingUp = true;
    const session = feed.session();
    feed.heard(note(3));
    feed.heard(note(4));
    expect(applied).toEqual([]);
    expect(feed.live).toBe(false);

    expect(await feed.caughtUp(session, 2)).toBe(4);
    state.catchingUp = false;
    expect(seqsOf(applied)).toEqual([3, 4]);
    expect(applied[0]?.notes?.[0]).toMatchObject({ text: 'note 3', at: '2026-03-01T09:10:00.123Z' });
    expect(feed.live).toBe(true);

    feed.heard(note(5));
    feed.heard(note(6));
    await until(() => seqsOf(applied).includes(6), 'the heard notes to be applied');
    // Heard in one turn of the event loop: applied in one local transaction.
    expect(applied).toHaveLength(2);
    expect(asked).toEqual([]);
  });

  it('does not go live from a catch-up begun before the connection listened again', async () => {
    const { feed, applied, state } = feedOn();
    feed.listening();
    const before = feed.session();
    state.catchingUp = true;
    feed.heard(note(3));
    feed.listening();
    expect(await feed.caughtUp(before, 2)).toBe(2);
    expect(applied).toEqual([]);
    expect(feed.live).toBe(false);

    const notListening = feedOn();
    notListening.state.listening = false;
    const none = notListening.feed.session();
    notListening.state.listening = true;
    await notListening.feed.caughtUp(none, 2);
    expect(notListening.feed.live).toBe(false);
  });

  it('reads the store for a row too large to announce, a payload it cannot read, or too much heard at once', async () => {
    const { feed, asked, lines, state } = feedOn();
    feed.listening();
    await feed.caughtUp(feed.session(), 1);
    expect(feed.live).toBe(true);

    feed.heard(JSON.stringify({ table: 'customers', seq: 9 }));
    expect(feed.live).toBe(false);
    feed.heard('{"table":"customers","row":{"id":"c-9","profile":"Secret Person"}}');
    expect(asked).toEqual(['a change too large to announce', 'an announcement it could not read']);
    expect(lines.join('\n')).not.toContain('Secret Person');

    state.catchingUp = true;
    asked.length = 0;
    for (let seq = 10; seq < 10 + KEEP_MAX + 1; seq++) feed.heard(note(seq));
    expect(asked).toEqual(['more announcements than it keeps while catching up']);
  });

  it('does not go live when what it kept cannot be applied, or from a catch-up begun before a break', async () => {
    const { feed, asked, state } = feedOn();
    feed.listening();
    state.catchingUp = true;
    let session = feed.session();
    feed.heard(note(13));
    await feed.caughtUp(session, 2);
    expect(feed.live).toBe(false);
    expect(asked).toEqual(['a change heard while catching up that could not be applied']);

    session = feed.session();
    feed.heard('not json at all');
    expect(await feed.caughtUp(session, 20)).toBe(20);
    expect(feed.live).toBe(false);
    // The catch-up it asked for begins after the break: that one may go live.
    expect(await feed.caughtUp(feed.session(), 21)).toBe(21);
    expect(feed.live).toBe(true);
  });

  it('syncs with one marker: true once what was heard before it is applied; false when not following', async () => {
    const { feed, applied, sent } = feedOn();
    expect(await feed.sync()).toBe(false);
    feed.listening();
    await feed.caughtUp(feed.session(), 2);

    const synced = feed.sync();
    await until(() => sent.length === 1, 'the marker to be sent');
    // Another desk's marker, then a change, then ours: ours resolves only once the change is applied.
    feed.heard('marker:someone-else');
    feed.heard(note(3));
    feed.heard(sent[0] ?? '');
    expect(await synced).toBe(true);
    expect(seqsOf(applied)).toEqual([3]);

    // A break before the marker comes back: the caller must read the store.
    const broken = feed.sync();
    await until(() => sent.length === 2, 'the second marker to be sent');
    feed.listening();
    expect(await broken).toBe(false);
    feed.heard(sent[1] ?? '');
  });
});
