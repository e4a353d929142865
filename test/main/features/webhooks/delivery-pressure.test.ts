import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryPressure } from '#main/features/webhooks/delivery-pressure.ts';

// Every test on a clock of its own: `now` is what the pressure reads, fake timers what it schedules.
let now = 0;
beforeEach(() => {
  vi.useFakeTimers();
  now = 1_000;
});
afterEach(() => vi.useRealTimers());

/** Busy at the rate of a flood (here 5 deliveries within 50 ms), quiet again once it eases. */
describe('delivery pressure', () => {
  // Deliveries here are never answered: the rate alone decides, unless a test says how many may wait.
  const pressure = (releaseMs = 50, busyInFlight = 1_000) =>
    createDeliveryPressure({ windowMs: 50, releaseMs, busyAt: 5, busyInFlight, now: () => now });

  it('is not busy at an ordinary pace', () => {
    const p = pressure();
    for (let i = 0; i < 20; i++) {
      p.arrived();
      now += 15; // 5 arrivals span 60 ms: below the rate
    }
    expect(p.busy).toBe(false);
  });

  it('is busy while the last busyAt arrived within the window', () => {
    const p = pressure();
    for (let i = 0; i < 4; i++) {
      p.arrived();
      now += 1;
    }
    expect(p.busy).toBe(false);
    p.arrived();
    expect(p.busy).toBe(true);
  });

  it('tells whoever waits once it has turned quiet, by its timer, and again after more deliveries', () => {
    const p = pressure();
    for (let i = 0; i < 5; i++) p.arrived();
    const quiet = vi.fn();
    p.onQuiet(quiet);
    now += 30;
    vi.advanceTimersByTime(30);
    for (let i = 0; i < 5; i++) p.arrived(); // the flood goes on: busy until 50 ms after these
    now += 20;
    vi.advanceTimersByTime(20);
    expect(p.busy).toBe(true);
    expect(quiet).not.toHaveBeenCalled();
    now += 30;
    vi.advanceTimersByTime(30);
    expect(p.busy).toBe(false);
    expect(quiet).toHaveBeenCalledTimes(1);
  });

  it('stays busy through a gap shorter than releaseMs: main held the deliveries back, the flood goes on', () => {
    const p = pressure(250);
    for (let i = 0; i < 5; i++) p.arrived();
    expect(p.busy).toBe(true);
    now += 200; // a batch of the events table, a slow sync: nothing read meanwhile
    expect(p.busy).toBe(true);
    for (let i = 0; i < 2; i++) p.arrived();
    now += 40; // the 5 last span 240 ms: still 20 a second or more
    expect(p.busy).toBe(true);
    now += 11;
    expect(p.busy).toBe(false);
  });

  it('once quiet, needs the rate of a flood to be busy again', () => {
    const p = pressure(250);
    for (let i = 0; i < 5; i++) p.arrived();
    now += 300;
    expect(p.busy).toBe(false);
    for (let i = 0; i < 5; i++) {
      p.arrived();
      now += 15; // 5 arrivals span 60 ms: below the flood's rate, though above the release's
    }
    expect(p.busy).toBe(false);
  });

  it('tells whoever waits when a flood ends, releaseMs after the last busyAt arrived', () => {
    const p = pressure(250);
    for (let i = 0; i < 5; i++) p.arrived();
    const quiet = vi.fn();
    p.onQuiet(quiet);
    now += 249;
    vi.advanceTimersByTime(249);
    expect(quiet).not.toHaveBeenCalled();
    now += 1;
    vi.advanceTimersByTime(1);
    expect(quiet).toHaveBeenCalledTimes(1);
  });

  it('forgets its waiters on close', () => {
    const p = pressure();
    for (let i = 0; i < 5; i++) p.arrived();
    const quiet = vi.fn();
    p.onQuiet(quiet);
    p.close();
    now += 100;
    vi.advanceTimersByTime(100);
    expect(quiet).not.toHaveBeenCalled();
  });

  it('is busy while busyInFlight deliveries wait unanswered, however slowly they come, and quiet once answered', () => {
    const p = pressure(50, 3);
    const quiet = vi.fn();
    for (let i = 0; i < 2; i++) {
      p.arrived();
      now += 100; // far below the rate of a flood
    }
    expect(p.busy).toBe(false);
    p.arrived();
    expect(p.busy).toBe(true);
    p.onQuiet(quiet);
    // Still three waiting a second later: the flood goes on.
    now += 1_000;
    vi.advanceTimersByTime(1_000);
    expect(quiet).not.toHaveBeenCalled();
    expect(p.busy).toBe(true);
    // One answered: none has found three waiting since, and releaseMs later the flood is over.
    p.answered();
    now += 49;
    vi.advanceTimersByTime(49);
    expect(quiet).not.toHaveBeenCalled();
    now += 1;
    vi.advanceTimersByTime(1);
    expect(quiet).toHaveBeenCalledTimes(1);
    expect(p.busy).toBe(false);
    // Answered ones count no more: two waiting, slowly, is an ordinary pace.
    p.answered();
    p.answered();
    p.arrived();
    now += 100;
    p.arrived();
    expect(p.busy).toBe(false);
  });
});

/** The defaults, as the receiver uses them: a working day's burst is not a flood (#38), a redelivery is. */
describe('delivery pressure by default', () => {
  /**
   * `count` deliveries at `perSecond`, at most 10 in flight as the service sends them, answered by group
   * commit: every `commitMs` all those waiting are answered at once, and the service sends what it held back
   * at once too. Whether the pressure was ever busy, and after how many deliveries it first was.
   */
  function send(count: number, perSecond: number, commitMs: number) {
    const p = createDeliveryPressure({ now: () => now });
    let sent = 0;
    let waiting = 0;
    let nextCommit = now + commitMs;
    let firstBusy: number | null = null;
    for (let tick = 0; sent < count; tick++) {
      now += 1;
      if (now >= nextCommit) {
        for (; waiting > 0; waiting--) p.answered();
        nextCommit += commitMs;
      }
      // What was due by now and the service may send (10 in flight at most).
      const due = Math.min(count, Math.floor((tick * perSecond) / 1_000) + 1);
      while (sent < due && waiting < 10) {
        p.arrived();
        sent++;
        waiting++;
        if (firstBusy === null && p.busy) firstBusy = sent;
      }
    }
    return { firstBusy };
  }

  it('does not call 100 deliveries in one second a flood, even answered in clumps by group commit', () => {
    expect(send(100, 100, 8).firstBusy).toBeNull();
    // Slow commits (a loaded store): 50 ms each, up to 5 held back and sent together.
    expect(send(100, 100, 50).firstBusy).toBeNull();
  });

  it('calls a redelivery as fast as the listener answers a flood within its first 125 deliveries', () => {
    const flood = send(2_000, 2_000, 8);
    expect(flood.firstBusy).not.toBeNull();
    expect(flood.firstBusy).toBeLessThanOrEqual(125);
  });
});
