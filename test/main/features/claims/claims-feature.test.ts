// The claims feature (main/features/claims/index.ts) with its concerns stood in for: a lead's action is refused in
// words before the claims (and so the store) are asked; claim changes and notices are pushed; a changed role
// is pushed; every case has its link, and in browser mode this desk's address of it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { ClaimNotice } from '#contract/claims.ts';
import { allNotifications } from '#contract/notifications.ts';
import { allowedTo, type TeamMe } from '#contract/roles.ts';
import { claimsFeature } from '#main/features/claims/index.ts';
import type { DeskContext } from '#main/features/feature.ts';
import type { ClaimListener, Claims, Teamwork } from '#main/features/team-interfaces/claims.ts';
import type { Settings } from '#main/ground/config/settings-store.ts';
import { createEventHub } from '#main/ground/event-hub.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { createNotifier } from '#main/ground/notifier.ts';

const CUSTOMER = randomUUID();

function rig(role: TeamMe['role'], browserOrigin?: () => string | null) {
  const events = createEventHub({ validate: true });
  const pushed: { event: string; payload: unknown }[] = [];
  events.subscribe((event, payload) => pushed.push({ event, payload }));
  let listener: ClaimListener | null = null;
  const claims = {
    reassign: vi.fn(async () => null),
    takeOver: vi.fn(async () => null),
    take: vi.fn(async () => null),
    watch: (heard: ClaimListener) => {
      listener = heard;
      return () => {
        listener = null;
      };
    },
    close: async () => undefined,
  } as unknown as Claims;
  const me = { current: role };
  const teamwork: Teamwork = {
    claims,
    roles: {
      me: async () => ({
        mode: 'team',
        reviewer: 'ben',
        role: me.current,
        claims: true,
        can: allowedTo(me.current),
      }),
    },
    settings: { get: vi.fn(), update: vi.fn() },
    overview: { read: vi.fn() },
    period: { read: vi.fn() },
  };
  const settings = { get: () => ({ notifications: allNotifications(true) }) as Settings };
  const context = {
    journal: { customers: { get: async (id: string) => (id === CUSTOMER ? { id } : undefined) } },
    events,
    settings,
    notifier: createNotifier({ settings, events }),
    log: createLogger(() => {}),
  } as unknown as DeskContext;
  const feature = claimsFeature(context, { teamwork, ...(browserOrigin ? { browserOrigin } : {}) });
  return { feature, claims, teamwork, pushed, me, hear: () => listener as unknown as ClaimListener };
}

describe('lead actions on the desk', () => {
  it('refuses a reviewer’s reassign, take-over and settings change in words, without asking the claims', async () => {
    const { feature, claims, teamwork } = rig('reviewer');
    const { handlers } = feature;
    const context = { host: 'browser' as const };
    await expect(
      handlers['claims.reassign']({ customerId: CUSTOMER, to: 'ana', note: 'for you' }, context),
    ).rejects.toMatchObject({
      code: 'LeadOnly',
      message:
        'Only a lead can reassign a case to another reviewer. Ask a lead of your team (your administrator makes leads).',
    });
    await expect(
      handlers['claims.takeOver']({ customerId: CUSTOMER, reason: 'mine' }, context),
    ).rejects.toMatchObject({
      code: 'LeadOnly',
    });
    await expect(handlers['team.updateSettings']({ claimIdleMinutes: 5 }, context)).rejects.toMatchObject({
      code: 'LeadOnly',
    });
    expect(claims.reassign).not.toHaveBeenCalled();
    expect(claims.takeOver).not.toHaveBeenCalled();
    expect(teamwork.settings.update).not.toHaveBeenCalled();
  });

  it('lets a lead through to the claims', async () => {
    const { feature, claims } = rig('lead');
    await feature.handlers['claims.takeOver'](
      { customerId: CUSTOMER, reason: 'urgent' },
      { host: 'browser' },
    );
    expect(claims.takeOver).toHaveBeenCalledWith(CUSTOMER, 'urgent');
  });

  it('refuses a case the desk does not know before asking the claims', async () => {
    const { feature, claims } = rig('lead');
    await expect(
      feature.handlers['claims.take']({ customerId: randomUUID() }, { host: 'browser' }),
    ).rejects.toMatchObject({
      code: 'NotFound',
    });
    expect(claims.take).not.toHaveBeenCalled();
  });
});

describe('what the desk pushes', () => {
  it('pushes every claim change, and a notice both as an event and as a notification', () => {
    const { pushed, hear } = rig('reviewer');
    hear().changed({ customerId: CUSTOMER, claim: null });
    const notice: ClaimNotice = {
      customerId: CUSTOMER,
      kind: 'takenOver',
      by: 'lee',
      note: 'urgent',
      text: 'lee took over a case you held. Reason: urgent',
    };
    hear().notice(notice);
    expect(pushed.slice(0, 3)).toEqual([
      { event: 'claims.changed', payload: { customerId: CUSTOMER, claim: null } },
      { event: 'claims.notice', payload: notice },
      {
        event: 'notification.show',
        payload: {
          customerId: CUSTOMER,
          status: 'claim',
          title: 'Case taken over',
          body: notice.text,
          desktop: true,
        },
      },
    ]);
  });

  it('pushes the reviewer’s role when it changed since the desk last looked', async () => {
    const { feature, pushed, me } = rig('reviewer');
    await feature.handlers['team.me'](undefined, { host: 'browser' });
    await feature.handlers['team.me'](undefined, { host: 'browser' });
    expect(pushed.filter((p) => p.event === 'team.me')).toEqual([]);
    me.current = 'lead';
    expect((await feature.handlers['team.me'](undefined, { host: 'browser' })).can.reassign).toBe(true);
    expect(pushed.filter((p) => p.event === 'team.me')).toMatchObject([{ payload: { role: 'lead' } }]);
  });
});

describe('case links', () => {
  it('gives every case its vetted:// link, and in browser mode this desk’s address of it', async () => {
    let origin: string | null = null;
    const { feature } = rig('reviewer', () => origin);
    const link = () => feature.handlers['case.link']({ customerId: CUSTOMER }, { host: 'browser' });
    expect(await link()).toEqual({ customerId: CUSTOMER, link: `vetted://case/${CUSTOMER}`, address: null });
    origin = 'http://127.0.0.1:4173';
    expect((await link()).address).toBe(`http://127.0.0.1:4173/#/case/${CUSTOMER}`);
  });
});
