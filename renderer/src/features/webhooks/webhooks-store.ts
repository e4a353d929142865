import { create } from 'zustand';
import type { ChannelOutput } from '#contract/channels.ts';
import { VettedError } from '#contract/errors.ts';
import type { CatchUpResult, SubscriptionView, TunnelCheck, WebhooksOverview } from '#contract/webhooks.ts';
import { api } from '#renderer/api.ts';
import { sharedWatch } from '#renderer/shared/data/watch.ts';

export type SecurityLog = ChannelOutput<'webhooks.securityLog'>;
/** Refused requests shown, newest first. */
const SECURITY_LOG_SHOWN = 50;

export interface Notice {
  kind: 'done' | 'failed';
  text: string;
}

interface WebhooksState {
  overview: WebhooksOverview | null;
  /** Set when the overview itself could not be had. */
  problem: string | null;
  /** The outcome of the last change to a subscription. */
  notice: Notice | null;
  /** Subscriptions with a pause, resume or deletion under way. */
  pending: ReadonlySet<string>;
  tunnel: TunnelCheck | null;
  checkingTunnel: boolean;
  /** The last catch-up run, asked for here or run by main (start-up, reconnection). */
  catchUp: CatchUpResult | null;
  catchingUp: boolean;
  relistening: boolean;
  securityLog: { log: SecurityLog | null; problem: string | null };
  /** The screen is open: what main reports keeps it current. Returns the function that stops watching. */
  watch(): () => void;
  /** From start-up on (App watches): a catch-up main runs by itself is kept for the screen to show. */
  watchCatchUps(): () => void;
  /** A catch-up run finished; after start-up or a reconnection, main has also (re)subscribed the listener. */
  caughtUp(result: CatchUpResult): void;
  load(): Promise<void>;
  /** Resolves to null when subscribed, else what is wrong with the URL (or the request). */
  subscribe(url: string): Promise<string | null>;
  setPaused(subscription: SubscriptionView, paused: boolean): Promise<void>;
  remove(subscription: SubscriptionView): Promise<void>;
  checkTunnel(): Promise<void>;
  runCatchUp(): Promise<void>;
  listenAgain(): Promise<void>;
  /** Reads the requests the listener refused, as of now. */
  loadSecurityLog(): Promise<void>;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
export const plural = (n: number, noun: string, nouns = `${noun}s`) => `${n} ${n === 1 ? noun : nouns}`;

export const useWebhooksStore = create<WebhooksState>((set, get) => {
  let active = false;
  /** Runs a change to one subscription, marked pending meanwhile, then lists them again. */
  const changing = async (id: string, change: () => Promise<string>) => {
    set((state) => ({ pending: new Set(state.pending).add(id), notice: null }));
    try {
      set({ notice: { kind: 'done', text: await change() } });
    } catch (error) {
      set({ notice: { kind: 'failed', text: messageOf(error) } });
    } finally {
      set((state) => {
        const pending = new Set(state.pending);
        pending.delete(id);
        return { pending };
      });
    }
    await get().load();
  };

  /** The last catch-up's offer to resume a subscription is settled once it is resumed. */
  const forgetPaused = (id: string) =>
    set(({ catchUp }) =>
      catchUp
        ? {
            catchUp: {
              ...catchUp,
              pausedSubscriptions: catchUp.pausedSubscriptions.filter((s) => s.id !== id),
            },
          }
        : {},
    );

  return {
    overview: null,
    problem: null,
    notice: null,
    pending: new Set(),
    tunnel: null,
    checkingTunnel: false,
    catchUp: null,
    catchingUp: false,
    relistening: false,
    securityLog: { log: null, problem: null },

    watch: sharedWatch(() => {
      active = true;
      void get().load();
      return [
        api.on('webhooks.listener', (listener) =>
          set((state) => (state.overview ? { overview: { ...state.overview, listener } } : {})),
        ),
        () => {
          active = false;
        },
      ];
    }),
    watchCatchUps: sharedWatch(() => api.on('webhooks.caughtUp', (result) => get().caughtUp(result))),
    caughtUp(result) {
      set({ catchUp: result });
      if (active) void get().load();
    },
    async load() {
      try {
        set({ overview: await api.webhooks.list(), problem: null });
      } catch (error) {
        set({ problem: `The webhook settings could not be loaded: ${messageOf(error)}` });
      }
    },
    async subscribe(url) {
      set({ notice: null });
      try {
        const created = await api.webhooks.subscribe(url.trim() === '' ? {} : { url: url.trim() });
        set({
          notice: {
            kind: 'done',
            text: `Subscribed ${created.url}. Its secret was made for it and kept in Vetted’s vault; it is never shown.`,
          },
        });
        await get().load();
        return null;
      } catch (error) {
        return error instanceof VettedError ? (error.fields['/url'] ?? error.message) : messageOf(error);
      }
    },
    setPaused: (subscription, paused) =>
      changing(subscription.id, async () => {
        const { redelivered } = await api.webhooks.setPaused({ id: subscription.id, paused });
        if (!paused) forgetPaused(subscription.id);
        if (paused) return `Paused ${subscription.url}: the service keeps its events until it is resumed.`;
        return redelivered > 0
          ? `Resumed ${subscription.url}; the service sent again ${plural(redelivered, 'delivery', 'deliveries')} missed while paused.`
          : `Resumed ${subscription.url}.`;
      }),
    remove: (subscription) =>
      changing(subscription.id, async () => {
        await api.webhooks.delete({ id: subscription.id });
        return `Deleted the subscription to ${subscription.url}.`;
      }),
    async checkTunnel() {
      set({ checkingTunnel: true, tunnel: null });
      try {
        set({ tunnel: await api.webhooks.checkTunnel() });
      } catch (error) {
        set({ tunnel: { ok: false, reason: null, message: messageOf(error), subscribed: null } });
      } finally {
        set({ checkingTunnel: false });
      }
    },
    async runCatchUp() {
      set({ catchingUp: true });
      try {
        set({ catchUp: await api.webhooks.catchUp() });
      } catch (error) {
        set({
          catchUp: {
            recorded: 0,
            processed: 0,
            pausedSubscriptions: [],
            message: `Could not catch up: ${messageOf(error)}`,
          },
        });
      } finally {
        set({ catchingUp: false });
      }
    },
    async listenAgain() {
      set({ relistening: true });
      try {
        await api.webhooks.listen();
      } catch (error) {
        set({ problem: `Vetted could not listen again: ${messageOf(error)}` });
      } finally {
        set({ relistening: false });
      }
      // In sandbox mode the subscription has followed the listener to its address.
      await get().load();
    },
    async loadSecurityLog() {
      try {
        set({
          securityLog: { log: await api.webhooks.securityLog({ limit: SECURITY_LOG_SHOWN }), problem: null },
        });
      } catch (error) {
        set((state) => ({
          securityLog: {
            log: state.securityLog.log,
            problem: `The security log could not be read: ${messageOf(error)}`,
          },
        }));
      }
    },
  };
});
