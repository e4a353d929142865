import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { allNotifications, NOTIFICATION_KINDS, type NotificationSwitches } from '#contract/notifications.ts';
import type { StatusNotice } from '#contract/webhooks.ts';
import type { Settings } from '#main/ground/config/settings-store.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createNotifier, NOTICE_GAP_MS } from '#main/ground/notifier.ts';

const ADA = '5f0c4c57-7c1a-4d7e-9d49-1f0b1f8d2f11';
const BEN = '0b8e3d52-2a51-4a1f-8f43-3c0f3c6b4e20';
const notice = (customerId: string, title = 'Case assigned to you'): StatusNotice => ({
  customerId,
  status: 'claim',
  title,
  body: 'lee gave you a case.',
});

function rig(switches: Partial<NotificationSwitches> = {}, overdueNotifications = true) {
  const settings = {
    current: { notifications: { ...allNotifications(true), ...switches }, overdueNotifications },
  };
  const events = createEventHub({ validate: true });
  const pushed: StatusNotice[] = [];
  events.subscribe((event, payload) => {
    if (event === 'notification.show') pushed.push(payload as StatusNotice);
  });
  // The system clock, which the fake timers move.
  const notifier = createNotifier({ settings: { get: () => settings.current as Settings }, events });
  const onDesktop = () => pushed.filter((n) => n.desktop).map((n) => [n.customerId, n.title]);
  return { notifier, pushed, onDesktop, settings };
}

describe('the desk’s one rule for notifications, on fake time', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T09:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tells each kind while its switch is on, and nothing at all once it is off', () => {
    const { notifier, pushed, settings } = rig({ approvalWaiting: false });
    expect(notifier.tell('assigned', notice(ADA))).toBe('desktop');
    expect(notifier.tell('approvalWaiting', notice(BEN, 'Approval waiting for you'))).toBe('off');
    expect(pushed).toEqual([{ ...notice(ADA), desktop: true }]);
    settings.current.notifications = allNotifications(false);
    vi.advanceTimersByTime(NOTICE_GAP_MS);
    for (const kind of NOTIFICATION_KINDS) expect(notifier.tell(kind, notice(BEN))).toBe('off');
    expect(pushed).toHaveLength(1);
  });

  it('keeps overdue cases under their own, older switch', () => {
    const { notifier } = rig(allNotifications(false), true);
    expect(notifier.tell('overdue', notice(ADA, 'Case overdue'))).toBe('desktop');
    const quiet = rig({}, false);
    expect(quiet.notifier.tell('overdue', notice(ADA, 'Case overdue'))).toBe('off');
    expect(quiet.pushed).toEqual([]);
  });

  it('reaches the desktop at most once per case a minute, whatever the kind; the rest stay in the window', () => {
    const { notifier, pushed, onDesktop } = rig();
    expect(notifier.tell('takenOver', notice(ADA, 'Case taken over'))).toBe('desktop');
    expect(notifier.tell('status', notice(ADA, 'Document needed'))).toBe('window');
    expect(notifier.tell('assigned', notice(BEN))).toBe('desktop');
    vi.advanceTimersByTime(NOTICE_GAP_MS - 1);
    expect(notifier.tell('status', notice(ADA, 'Retry needed'))).toBe('window');
    vi.advanceTimersByTime(1);
    expect(notifier.tell('status', notice(ADA, 'Customer verified'))).toBe('desktop');
    expect(onDesktop()).toEqual([
      [ADA, 'Case taken over'],
      [BEN, 'Case assigned to you'],
      [ADA, 'Customer verified'],
    ]);
    // Every one was told, for the window's toasts (browser mode) to show the newest.
    expect(pushed.map((n) => n.title)).toEqual([
      'Case taken over',
      'Document needed',
      'Case assigned to you',
      'Retry needed',
      'Customer verified',
    ]);
  });

  it('counts the minute from the last notice on the desktop, not from one held back', () => {
    const { notifier } = rig();
    notifier.tell('status', notice(ADA));
    vi.advanceTimersByTime(NOTICE_GAP_MS / 2);
    expect(notifier.tell('status', notice(ADA))).toBe('window');
    vi.advanceTimersByTime(NOTICE_GAP_MS / 2);
    expect(notifier.tell('status', notice(ADA))).toBe('desktop');
  });

  it('keeps the case the focused window shows off the desktop; not once the window loses focus or moves on', () => {
    const { notifier, onDesktop } = rig();
    notifier.viewing({ customerId: ADA, focused: true });
    expect(notifier.tell('assigned', notice(ADA))).toBe('window');
    expect(notifier.tell('assigned', notice(BEN))).toBe('desktop');
    notifier.viewing({ customerId: ADA, focused: false });
    expect(notifier.tell('assigned', notice(ADA))).toBe('desktop');
    vi.advanceTimersByTime(NOTICE_GAP_MS);
    notifier.viewing({ customerId: null, focused: true });
    expect(notifier.tell('takenOver', notice(ADA, 'Case taken over'))).toBe('desktop');
    expect(onDesktop().map(([customerId]) => customerId)).toEqual([BEN, ADA, ADA]);
  });

  it('tells a case held back while on screen at once when another case is opened', () => {
    const { notifier } = rig();
    notifier.viewing({ customerId: ADA, focused: true });
    expect(notifier.tell('status', notice(ADA))).toBe('window');
    notifier.viewing({ customerId: BEN, focused: true });
    expect(notifier.tell('status', notice(ADA))).toBe('desktop');
  });

  it('does not stay silent for longer than a minute when the clock is set back', () => {
    const { notifier } = rig();
    notifier.tell('status', notice(ADA));
    vi.setSystemTime(new Date('2026-03-01T08:00:00.000Z'));
    expect(notifier.tell('status', notice(ADA))).toBe('desktop');
  });
});
