import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Metrics } from '#contract/metrics.ts';
import { fakeApi, installFresh } from '#test/support/renderer/fake-api.ts';

const metrics = (deliveries: number, faults: Metrics['faults'] = { count: 0, last: null }): Metrics => ({
  at: '2026-11-23T17:00:00.000Z',
  uptimeSeconds: 12.4,
  webhooks: {
    deliveries,
    duplicates: 2,
    refusals: 1,
    inboxBacklog: 0,
    eventsBehind: 0,
    reconcileBacklog: 3,
    refreshes: 40,
    ingest: { samples: 1200, p50Ms: 1.2, p99Ms: 4.8 },
    eventToScreen: { samples: 0, p50Ms: null, p99Ms: null },
  },
  outbox: { draft: 1, queued: 0, sending: 0, created: 5, rejected: 0, attention: 0 },
  tokens: { renewals: 1 },
  memory: { rssBytes: 150 * 1024 * 1024, heapUsedBytes: 40 * 1024 * 1024 },
  faults,
});

let answers: number[];
let store: typeof import('#renderer/features/settings/diagnostics-store.ts');
let section: typeof import('#renderer/features/settings/DiagnosticsSection.tsx');

beforeEach(async () => {
  answers = [];
  let delivered = 1000;
  const fake = fakeApi({
    app: {
      metrics: vi.fn(async () => {
        answers.push(delivered);
        return metrics(delivered++);
      }),
    },
  });
  await installFresh(fake);
  store = await import('#renderer/features/settings/diagnostics-store.ts');
  section = await import('#renderer/features/settings/DiagnosticsSection.tsx');
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the Diagnostics section', () => {
  it('refreshes the figures while it is watched, and not after', async () => {
    vi.useFakeTimers();
    const { useDiagnosticsStore, DIAGNOSTICS_REFRESH_MS } = store;
    await useDiagnosticsStore.getState().load();
    expect(useDiagnosticsStore.getState().metrics?.webhooks.deliveries).toBe(1000);

    const stop = useDiagnosticsStore.getState().watch();
    await vi.advanceTimersByTimeAsync(DIAGNOSTICS_REFRESH_MS);
    expect(useDiagnosticsStore.getState().metrics?.webhooks.deliveries).toBe(1001);
    await vi.advanceTimersByTimeAsync(DIAGNOSTICS_REFRESH_MS);
    expect(answers).toEqual([1000, 1001, 1002]);

    stop();
    await vi.advanceTimersByTimeAsync(DIAGNOSTICS_REFRESH_MS * 5);
    expect(answers).toHaveLength(3);
  });

  it('is a titled section with a button to refresh it', () => {
    const html = renderToStaticMarkup(createElement(section.DiagnosticsSection));
    expect(html).toContain('aria-labelledby="diagnostics-title"');
    expect(html).toContain('<h3 id="diagnostics-title">Diagnostics</h3>');
    expect(html).toContain('<button type="button">Refresh figures</button>');
  });

  it('shows each figure as a row with its name as the row header, in words', () => {
    const html = renderToStaticMarkup(createElement(section.DiagnosticsTable, { metrics: metrics(1000) }));
    expect(html).toContain('<caption>');
    expect(html).toContain('<th scope="row">Webhook deliveries</th><td>1,000</td>');
    expect(html).toContain(
      '<th scope="row">Time to record a delivery</th><td>median 1.2 ms, 99th percentile 4.8 ms (last 1,200)</td>',
    );
    expect(html).toContain('<th scope="row">Time from event to screen</th><td>no samples yet</td>');
    expect(html).toContain('draft 1, queued 0, sending 0, created 5, rejected 0, attention 0');
    expect(html).toContain('150.0 MiB (JavaScript heap 40.0 MiB)');
    expect(html).toContain('<th scope="row">Unexpected errors</th><td>none</td>');
  });

  it('shows the faults the last net caught: how many, and when the last one was', () => {
    const caught = metrics(1, {
      count: 2,
      last: { at: '2026-11-29T07:10:03.000Z', kind: 'unhandledRejection' },
    });
    const html = renderToStaticMarkup(createElement(section.DiagnosticsTable, { metrics: caught }));
    expect(html).toContain(
      '<th scope="row">Unexpected errors</th><td>2, the last at 07:10:03 UTC (a promise rejected; details in the log)</td>',
    );
  });

  it('says in words when the figures cannot be read', async () => {
    const fake = fakeApi({
      app: {
        metrics: vi.fn(async () => {
          throw new Error('The desk is closing.');
        }),
      },
    });
    await installFresh(fake);
    const fresh = await import('#renderer/features/settings/diagnostics-store.ts');
    await fresh.useDiagnosticsStore.getState().load();
    expect(fresh.useDiagnosticsStore.getState().problem).toBe('The desk is closing.');
  });
});
