import path from 'node:path';
import { test as base } from '@playwright/test';
import type { Metrics } from '#contract/metrics.ts';
import { allNotifications } from '#contract/notifications.ts';
import type { QueueRow, QueueWindowInput } from '#contract/queue.ts';
import { SECTIONS } from '#contract/queue.ts';
import { DEFAULT_AGEING_TARGETS, isOverdue } from '#contract/queue-view.ts';
import { allowedTo } from '#contract/roles.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { type Handlers, serve } from '#main/ground/serve.ts';
import { startBrowserHost } from '#main/hosts/browser/host.ts';
import { type TeamView, teamWorld } from './team-world.ts';
import { trendsWorld } from './trends-world.ts';
import { AUDIT_ROWS, ago, customerDetail, documents, EVENTS, NOW, ROWS, timeline } from './world.ts';

/**
 * The renderer as built, served by browser mode's own host, with a desk that answers from the fixed world
 * (world.ts) instead of a journal and a sandbox: the screenshot comparisons need customers of every status
 * with real-looking names, at times fixed around NOW, which the sandbox (random ids, names that choose the
 * status, its own clock) cannot give. Every answer is checked against the contract (validateOutput), and a
 * channel the world does not answer is recorded, so a screen that starts asking something new fails here.
 */
export interface CannedDesk {
  launchUrl: string;
  /** Channels asked that the world does not answer, or answers the contract refuses. */
  unexpected: string[];
}

const projectRoot = path.resolve(import.meta.dirname, '..', '..', '..');

function window({ section, search, sort, offset, limit }: QueueWindowInput) {
  const query = search.trim().toLowerCase();
  const matching = ROWS.filter((row) => !query || `${row.name} ${row.email}`.toLowerCase().includes(query));
  const shown = matching.filter((row) => section === 'all' || row.section === section);
  const order: Record<string, (a: QueueRow, b: QueueRow) => number> = {
    waiting: (a, b) => a.statusSince.localeCompare(b.statusSince),
    name: (a, b) => a.name.localeCompare(b.name),
    lastChange: (a, b) => (b.changedAt ?? '').localeCompare(a.changedAt ?? ''),
  };
  const counts = Object.fromEntries(
    SECTIONS.map((name) => [name, matching.filter((row) => row.section === name).length]),
  ) as Record<(typeof SECTIONS)[number], number>;
  return {
    rows: [...shown].sort(order[sort ?? 'waiting']).slice(offset, offset + limit),
    total: shown.length,
    counts,
  };
}

const overdueCounts = () => {
  const late = (section: 'retry' | 'document' | 'review') =>
    ROWS.filter(
      (row) =>
        row.section === section && isOverdue(row.section, row.statusSince, NOW, DEFAULT_AGEING_TARGETS),
    ).length;
  return { retry: late('retry'), document: late('document'), review: late('review') };
};

const METRICS: Metrics = {
  at: ago(0),
  uptimeSeconds: 5400,
  webhooks: {
    deliveries: 11,
    duplicates: 1,
    refusals: 0,
    inboxBacklog: 0,
    eventsBehind: 0,
    reconcileBacklog: 0,
    refreshes: 10,
    ingest: { samples: 11, p50Ms: 1.2, p99Ms: 3.4 },
    eventToScreen: { samples: 11, p50Ms: 4.1, p99Ms: 9.8 },
  },
  outbox: { draft: 0, queued: 0, sending: 0, created: 2, rejected: 0, attention: 0 },
  tokens: { renewals: 2 },
  memory: { rssBytes: 150 * 1024 * 1024, heapUsedBytes: 40 * 1024 * 1024 },
  faults: { count: 0, last: null },
};

const WORLD: Partial<Handlers> = {
  'app.info': () => ({ name: 'Vetted', version: '0.1.0', host: 'browser', serviceMode: 'sandbox' }),
  'vault.status': () => ({ state: 'open', reason: null }),
  'service.status': () => ({
    mode: 'sandbox',
    baseUrl: null,
    state: 'online',
    lastSuccessAt: ago(12_000),
    detail: null,
  }),
  'queue.window': window,
  'queue.overdue': () => ({ counts: overdueCounts(), targets: { ...DEFAULT_AGEING_TARGETS }, at: ago(0) }),
  'customers.importAvailability': () => ({ available: true, reason: null }),
  'customers.get': ({ id }) => customerDetail(id),
  'customers.timeline': ({ id }) => ({ entries: timeline(id), hasOlder: false }),
  'documents.list': ({ customerId }) => {
    const held = documents(customerId);
    return {
      customerId,
      customerStatus: customerDetail(customerId).status,
      documents: held,
      pending: held.filter((document) => document.review === 'pending').length,
    };
  },
  'documents.stored': () => [],
  'events.window': ({ offset, limit }) => ({
    rows: EVENTS.slice(offset, offset + limit),
    total: EVENTS.length,
    topics: [...new Set(EVENTS.map((event) => event.topic))].sort(),
  }),
  'audit.window': ({ offset, limit }) => ({
    rows: AUDIT_ROWS.slice(offset, offset + limit),
    total: AUDIT_ROWS.length,
    actors: ['dana.reviewer'],
    actions: [
      ...new Map(AUDIT_ROWS.map((row) => [row.action, { action: row.action, what: row.what }])).values(),
    ],
  }),
  'outbox.status': () => ({
    counts: { draft: 0, queued: 0, sending: 0, created: 2, rejected: 0, attention: 0 },
    online: true,
    draining: false,
    inFlight: 0,
    nextAttemptAt: null,
  }),
  'drafts.list': () => ({ drafts: [] }),
  'settings.get': () => ({
    serviceMode: 'sandbox',
    hasClientSecret: false,
    webhookPort: 8789,
    notifications: allNotifications(true),
    sandboxProfile: 'interface',
    tokenEndpoint: 'automatic',
    requestRate: 10,
    requestBurst: 20,
    ageingTargets: { ...DEFAULT_AGEING_TARGETS },
    overdueNotifications: true,
    secretProtection: 'file-permissions',
    problem: null,
  }),
  'team.status': () => ({ mode: 'solo', store: 'not-joined', hub: 'unknown', restartNeeded: false }),
  // A solo desk has no team store to lose.
  'team.presence': () => ({ awaySince: null }),
  // A solo desk: nothing ever waits for a second reviewer's approval.
  'approvals.forCase': () => ({ approval: null }),
  'approvals.list': () => [],
  // What joining a team would bring of this solo desk's history (Settings → Team's offer).
  'team.historyOffer': () => ({ notes: 4, auditEntries: 27, customers: 11, drafts: 0 }),
  // A solo desk: its reviewer is their own lead and nothing is claimed, so no claim shows on any screen.
  'team.me': () => ({
    mode: 'solo',
    reviewer: 'dana.reviewer',
    role: 'lead',
    claims: false,
    can: allowedTo('lead'),
  }),
  // The idle lock, armed with a secret of its own (Settings → Lock); the page reports input as it goes.
  'lock.state': () => ({
    locked: false,
    reason: null,
    desk: 'dana-laptop',
    reviewer: 'dana.reviewer',
    armed: true,
    secret: 'lock-secret',
    idleMinutes: 15,
    ownIdleMinutes: 15,
    teamMaximum: null,
    key: 'Ctrl+Shift+L',
    failures: 0,
    waitMs: 0,
  }),
  'lock.activity': () => ({ locked: false }),
  // The window says which case is on screen (main's rule for notifications keeps it off the desktop).
  'notifications.viewing': () => ({ ok: true }),
  'updates.status': () => ({
    offered: false,
    notOffered: 'Browser mode does not update itself: update Vetted where it was installed from.',
    managedBy: null,
    channel: 'stable',
    channelLocked: false,
    feedUrl: null,
    phase: 'idle',
    currentVersion: '0.1.0',
    availableVersion: null,
    progress: null,
    lastCheckedAt: null,
    error: null,
  }),
  'app.metrics': () => METRICS,
  // Settings → My work.
  ...trendsWorld('dana.reviewer'),
};

export const test = base.extend<{ desk: CannedDesk; world: Partial<Handlers>; team: TeamView | 'solo' }>({
  /** Answers of a spec's own over the world's (`test.use({ world: { … } })`): a store away, say. */
  world: [{}, { option: true }],
  /** The world as a solo desk sees it, or a team's reviewer or lead (team-world.ts). */
  team: ['solo', { option: true }],
  desk: async ({ page, world, team }, use) => {
    const unexpected: string[] = [];
    const base = team === 'solo' ? WORLD : { ...WORLD, ...teamWorld(team, WORLD) };
    const handlers = new Proxy(
      { ...base, ...world },
      {
        get: (world, channel: string) =>
          world[channel as keyof Handlers] ??
          (() => {
            throw new Error('not in the look’s world');
          }),
      },
    ) as Handlers;
    const dispatch = serve(handlers, {
      host: 'browser',
      isTrustedSender: (session: { authenticated: boolean }) => session.authenticated,
      validateOutput: true,
      onUnexpected: (channel, error) =>
        unexpected.push(`${channel}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const host = await startBrowserHost({
      dispatch,
      events: createEventHub(),
      rendererDir: path.join(projectRoot, 'out', 'renderer'),
      port: 0,
    });
    await use({ launchUrl: host.launchUrl, unexpected });
    // The browser's side first: its event stream would otherwise keep the host's server from closing.
    await page.context().close();
    await host.close();
  },
});

export { expect } from '@playwright/test';
