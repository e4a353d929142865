import { create } from 'zustand';
import type { Latency, Metrics } from '#contract/metrics.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

/** While the Diagnostics section is open, its figures are asked for again this often. */
export const DIAGNOSTICS_REFRESH_MS = 2_000;

interface DiagnosticsState {
  metrics: Metrics | null;
  problem: string | null;
  load(): Promise<void>;
  /** The section is on screen: the figures refresh by themselves until it goes. */
  watch(): () => void;
}

export const useDiagnosticsStore = create<DiagnosticsState>((set, get) => ({
  metrics: null,
  problem: null,
  async load() {
    try {
      set({ metrics: await api.app.metrics(), problem: null });
    } catch (error) {
      set({ problem: error instanceof Error ? error.message : String(error) });
    }
  },
  watch: sharedWatch(() => {
    const timer = setInterval(() => void get().load(), DIAGNOSTICS_REFRESH_MS);
    return () => clearInterval(timer);
  }),
}));

/** The figures as the panel's rows: a name and its value in words. */
export function diagnosticsRows(metrics: Metrics): Array<{ name: string; value: string }> {
  const { webhooks, outbox, tokens, memory, faults } = metrics;
  const count = (n: number) => n.toLocaleString('en-US');
  return [
    { name: 'Webhook deliveries', value: count(webhooks.deliveries) },
    { name: 'Duplicate deliveries', value: count(webhooks.duplicates) },
    { name: 'Refused requests', value: count(webhooks.refusals) },
    { name: 'Deliveries being recorded', value: count(webhooks.inboxBacklog) },
    { name: 'Events waiting to be written', value: count(webhooks.eventsBehind) },
    { name: 'Events waiting for a refresh', value: count(webhooks.reconcileBacklog) },
    { name: 'Customer refreshes for events', value: count(webhooks.refreshes) },
    { name: 'Time to record a delivery', value: latency(webhooks.ingest) },
    { name: 'Time from event to screen', value: latency(webhooks.eventToScreen) },
    {
      name: 'Outbox',
      value: Object.entries(outbox)
        .map(([state, n]) => `${state} ${count(n)}`)
        .join(', '),
    },
    { name: 'Access tokens obtained', value: count(tokens.renewals) },
    {
      name: 'Memory in use',
      value: `${mib(memory.rssBytes)} (JavaScript heap ${mib(memory.heapUsedBytes)})`,
    },
    { name: 'Running for', value: `${Math.round(metrics.uptimeSeconds)} s` },
    { name: 'Unexpected errors', value: faultsText(faults) },
  ];
}

/** Errors nothing caught (logged, the app going on): none, or how many and the last one's time. */
function faultsText({ count, last }: Metrics['faults']): string {
  if (count === 0 || !last) return 'none';
  const what = last.kind === 'uncaughtException' ? 'an exception' : 'a promise rejected';
  return `${count.toLocaleString('en-US')}, the last at ${last.at.slice(11, 19)} UTC (${what}; details in the log)`;
}

function latency(figure: Latency): string {
  if (figure.p50Ms === null || figure.p99Ms === null) return 'no samples yet';
  return `median ${figure.p50Ms} ms, 99th percentile ${figure.p99Ms} ms (last ${figure.samples.toLocaleString('en-US')})`;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
