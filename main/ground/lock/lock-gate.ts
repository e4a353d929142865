// While the desk is locked, main answers no channel that could return personal data: every channel but a
// short list that holds none refuses with a typed "locked" error, in words. The renderer clears itself too,
// but the refusal here is what holds, whatever the page does.
import type { ChannelName, EventName } from '#contract/channels.ts';
import { DeskError } from '#contract/errors.ts';
import { LockErrorCode, lockChannels } from '#contract/lock.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { EventListener } from '../event-hub.ts';
import type { Handlers } from '../serve.ts';

export const LOCKED_CODE = LockErrorCode.locked;
export const LOCKED_MESSAGE =
  'The desk is locked: unlock it with the desk’s secret to see and work on customers again.';

/** Channels that carry no customer's data: what the lock screen needs to name the desk and stay alive. */
export const OPEN_WHILE_LOCKED: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'app.info',
  'app.ping',
  'service.status',
  // The vault is open whenever the desk runs: its status says only that.
  'vault.status',
  // The window says what is on screen (the lock screen: no case); it is answered with nothing.
  'notifications.viewing',
  ...(Object.keys(lockChannels) as (keyof typeof lockChannels)[]),
]);

export function lockedError(): DeskError {
  return new DeskError(LOCKED_CODE, LOCKED_MESSAGE);
}

/** The same handlers, each refusing while `isLocked()` unless it is open while locked. */
export function gateHandlers(
  handlers: Handlers,
  isLocked: () => boolean,
  open: ReadonlySet<ChannelName> = OPEN_WHILE_LOCKED,
): Handlers {
  const gated: Record<string, unknown> = {};
  for (const [channel, handler] of Object.entries(handlers) as [
    ChannelName,
    (...args: never[]) => unknown,
  ][]) {
    gated[channel] = open.has(channel)
      ? handler
      : (...args: never[]) => {
          if (isLocked()) throw lockedError();
          return handler(...args);
        };
  }
  return gated as Handlers;
}

/** Pushed events that carry no customer's data, so they still reach a locked window. */
export const EVENTS_WHILE_LOCKED: ReadonlySet<EventName> = new Set<EventName>([
  'service.status',
  'lock.changed',
]);

/** A notice while locked says a case changed, never whose: its name and its customer are left out. */
export const LOCKED_NOTICE_BODY = 'Unlock Vetted to see which customer.';

/**
 * A host's listener for pushed events that drops every other event while locked: the work behind them goes
 * on in main (webhooks, the outbox, claims), only the window hears nothing of it until it unlocks and reloads.
 */
export function lockedEvents(
  listener: EventListener,
  isLocked: () => boolean,
  open: ReadonlySet<EventName> = EVENTS_WHILE_LOCKED,
): EventListener {
  return (event, payload) => {
    if (!isLocked() || open.has(event)) return listener(event, payload);
    if (event === 'notification.show') {
      const { title, status, desktop } = payload as StatusNotice;
      const masked: StatusNotice = { customerId: '', status, title, body: LOCKED_NOTICE_BODY };
      listener(event, desktop === undefined ? masked : { ...masked, desktop });
    }
  };
}
