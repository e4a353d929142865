import { describe, expect, it } from 'vitest';
import { latencyRecorder } from '#main/features/diagnostics/metrics.ts';

describe('latency recorder', () => {
  it('has no quantiles before its first sample', () => {
    expect(latencyRecorder().summary()).toEqual({ samples: 0, p50Ms: null, p99Ms: null });
  });

  it('gives p50 and p99 by nearest rank', () => {
    const recorder = latencyRecorder();
    for (let ms = 1; ms <= 100; ms++) recorder.add(ms);
    expect(recorder.summary()).toEqual({ samples: 100, p50Ms: 50, p99Ms: 99 });
  });

  it('keeps only the most recent samples, so memory stays the same however long it runs', () => {
    const recorder = latencyRecorder(10);
    for (let i = 0; i < 1000; i++) recorder.add(1000);
    for (let i = 0; i < 10; i++) recorder.add(2);
    expect(recorder.summary()).toEqual({ samples: 10, p50Ms: 2, p99Ms: 2 });
  });
});
