import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryPressure } from '../../main/webhooks/delivery-pressure.ts';

/** Busy at the rate of a flood (by default 25 deliveries within 50 ms), quiet again once it eases. */
describe('delivery pressure', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1_000;
  });
  afterEach(() => vi.useRealTimers());
  const pressure = () => createDeliveryPressure({ windowMs: 50, busyAt: 5, now: () => now });

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
});
