import type { Handlers } from '#main/ground/serve.ts';
import { trendsSample } from '#test/support/renderer/trends-sample.ts';
import { NOW } from './world.ts';

/**
 * The trends as the look's desks answer them (the Team screen's charts, My work): made-up numbers, the same on
 * every run, over the range asked, ending on NOW's day. `reviewer` is this desk's; the team's closings are
 * Dana's, Lee's, Sam's and nobody's.
 */
export const trendsWorld = (reviewer: string): Partial<Handlers> => ({
  'trends.read': ({ scope, days }) =>
    trendsSample({
      scope,
      days,
      reviewer,
      at: new Date(NOW).toISOString(),
      reviewers: ['dana', 'lee', 'sam', null],
    }),
});
