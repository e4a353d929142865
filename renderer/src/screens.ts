import { type ComponentType, lazy } from 'react';

/**
 * The screens other than the queue, each in a chunk of its own: the page evaluates only what the queue's
 * first screen needs before it paints (`bench/start-up.ts`, "page open to queue painted"). Once the rows are
 * painted, `loadScreensSoon` fetches the rest while the reviewer reads them, so switching screens does not
 * wait on the network later.
 */
const loaders = {
  settings: () => import('./shell/SettingsScreen.tsx').then((m) => m.SettingsScreen),
  events: () => import('./features/events/EventLogScreen.tsx').then((m) => m.EventLogScreen),
  sandbox: () => import('./features/sandbox/SandboxScreen.tsx').then((m) => m.SandboxScreen),
  webhooks: () => import('./features/webhooks/WebhooksScreen.tsx').then((m) => m.WebhooksScreen),
  audit: () => import('./features/audit/AuditScreen.tsx').then((m) => m.AuditScreen),
  team: () => import('./shell/TeamScreen.tsx').then((m) => m.TeamScreen),
  draft: () => import('./features/drafts/DraftScreen.tsx').then((m) => m.DraftScreen),
};

const screen = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(async () => ({ default: await load() }));

export const SettingsScreen = screen(loaders.settings);
export const EventLogScreen = screen(loaders.events);
export const SandboxScreen = screen(loaders.sandbox);
export const WebhooksScreen = screen(loaders.webhooks);
export const AuditScreen = screen(loaders.audit);
export const TeamScreen = screen(loaders.team);
export const DraftScreen = screen(loaders.draft);

let started = false;
/** Fetches every screen's chunk once the page is idle (the browser caches the modules; nothing renders). */
export function loadScreensSoon(): void {
  if (started) return;
  started = true;
  const all = () => {
    for (const load of Object.values(loaders)) void load().catch(() => {});
  };
  if ('requestIdleCallback' in window) window.requestIdleCallback(all, { timeout: 2000 });
  else setTimeout(all, 0);
}
