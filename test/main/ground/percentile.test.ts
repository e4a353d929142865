// percentileCont (main/ground/percentile.ts): PostgreSQL's percentile_cont, so that a solo desk's medians
// are the team store's. The team's trends test compares the two on one world; here, the interpolation itself.
import { describe, expect, it } from 'vitest';
import { percentileCont } from '#main/ground/percentile.ts';

describe('percentileCont', () => {
  it('interpolates between the two nearest values, whatever their order', () => {
    expect(percentileCont([600, 240, 60, 180, 120], 0.5)).toBe(180);
    // 240 + 0.6 × (600 − 240), as the Team screen's test has it from PostgreSQL.
    expect(percentileCont([60, 120, 180, 240, 600], 0.9)).toBe(456);
    expect(percentileCont([3600, 7200], 0.5)).toBe(5400);
    expect(percentileCont([1, 2, 3, 4], 0)).toBe(1);
    expect(percentileCont([1, 2, 3, 4], 1)).toBe(4);
  });

  it('gives the one value of one, and null of none', () => {
    expect(percentileCont([42], 0.9)).toBe(42);
    expect(percentileCont([], 0.5)).toBeNull();
  });
});
