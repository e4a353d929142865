// The claims, roles and team settings channels, and each case's link. Lead actions are refused here, in
// words, before the store is asked (the store refuses them too); claim changes from any desk are pushed as
// they reach this one, and so are this reviewer's notices (a case taken over, reassigned, expired).
import { type CaseClaim, type Claim, type ClaimNotice, caseLink } from '#contract/claims.ts';
import type { NotificationKind } from '#contract/notifications.ts';
import { AGEING_SECTIONS } from '#contract/queue-view.ts';
import type { TeamMe } from '#contract/roles.ts';
import { refusal } from '#main/data/failures.ts';
import { dueBefore } from '#main/data/journal/index.ts';
import { describeError } from '#main/ground/log/logger.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { requireLead, type Teamwork } from '../team-interfaces/claims.ts';

type ClaimsChannel =
  | 'claims.get'
  | 'claims.take'
  | 'claims.release'
  | 'claims.reassign'
  | 'claims.takeOver'
  | 'claims.next'
  | 'claims.counts'
  | 'claims.reviewers'
  | 'case.link'
  | 'team.me'
  | 'team.settings'
  | 'team.updateSettings';

export interface ClaimsFeatureOptions {
  teamwork: Teamwork;
  /** Main's clock, for the overdue counts (as the queue's). */
  clock?: () => Date;
  /** Browser mode: where this desk's renderer is reached (`http://127.0.0.1:<port>`); null under Electron. */
  browserOrigin?: () => string | null;
}

const NOTICE_TITLES: Record<ClaimNotice['kind'], string> = {
  takenOver: 'Case taken over',
  reassignedAway: 'Case reassigned',
  reassignedToYou: 'Case assigned to you',
  expired: 'Claim expired',
};

/** Which switch in Settings a claim notice answers to: given a case, or no longer holding one. */
const NOTICE_KINDS: Record<ClaimNotice['kind'], NotificationKind> = {
  takenOver: 'takenOver',
  reassignedAway: 'takenOver',
  reassignedToYou: 'assigned',
  expired: 'takenOver',
};

export function claimsFeature(context: DeskContext, options: ClaimsFeatureOptions): Feature<ClaimsChannel> {
  const { journal, events, settings, log, notifier } = context;
  const { claims, roles } = options.teamwork;
  const clock = options.clock ?? (() => new Date());

  const knownCustomer = async (id: string) => {
    if (!(await journal.customers.get(id))) throw refusal.unknownCustomer();
  };
  const caseClaim = (customerId: string, claim: Claim | null): CaseClaim => ({ customerId, claim });

  // A role that changed since the last look (the administrator's set-role) is pushed to every window.
  let lastMe: string | null = null;
  const me = async (): Promise<TeamMe> => {
    const now = await roles.me();
    const seen = JSON.stringify(now);
    if (lastMe !== null && seen !== lastMe) events.emit('team.me', now);
    lastMe = seen;
    return now;
  };
  const teamwork = { ...options.teamwork, roles: { me } };

  const stopWatching = claims.watch({
    changed: (change) => events.emit('claims.changed', change),
    notice(notice) {
      events.emit('claims.notice', notice);
      notifier.tell(NOTICE_KINDS[notice.kind], {
        customerId: notice.customerId,
        status: 'claim',
        title: NOTICE_TITLES[notice.kind],
        body: notice.text,
      });
      // Losing or being given a case may come with a new role; the next look says.
      me().catch((error: unknown) => log.warn('role not read', describeError(error)));
    },
  });

  return {
    handlers: {
      async 'claims.get'({ customerId }) {
        await knownCustomer(customerId);
        return caseClaim(customerId, await claims.get(customerId));
      },
      async 'claims.take'({ customerId }) {
        await knownCustomer(customerId);
        return caseClaim(customerId, await claims.take(customerId));
      },
      async 'claims.release'({ customerId }) {
        await knownCustomer(customerId);
        return caseClaim(customerId, await claims.release(customerId));
      },
      async 'claims.reassign'({ customerId, to, note }) {
        await requireLead(teamwork.roles, 'reassign');
        await knownCustomer(customerId);
        return caseClaim(customerId, await claims.reassign(customerId, to, note));
      },
      async 'claims.takeOver'({ customerId, reason }) {
        await requireLead(teamwork.roles, 'takeOver');
        await knownCustomer(customerId);
        return caseClaim(customerId, await claims.takeOver(customerId, reason));
      },
      async 'claims.next'(input) {
        const section = input?.section;
        return { claim: await claims.next(section ? [section] : AGEING_SECTIONS) };
      },
      async 'claims.counts'() {
        const now = clock();
        const { ageingTargets } = settings.get();
        const holders = await claims.counts(dueBefore(ageingTargets, now));
        return { holders, targets: { ...ageingTargets }, at: now.toISOString() };
      },
      'claims.reviewers': () => claims.reviewers(),
      async 'case.link'({ customerId }) {
        await knownCustomer(customerId);
        const origin = options.browserOrigin?.() ?? null;
        return {
          customerId,
          link: caseLink(customerId),
          address: origin ? `${origin}/#/case/${encodeURIComponent(customerId)}` : null,
        };
      },
      'team.me': () => me(),
      'team.settings': () => teamwork.settings.get(),
      async 'team.updateSettings'(patch) {
        await requireLead(teamwork.roles, 'changeTeamSettings');
        return teamwork.settings.update(patch);
      },
    },
    async close() {
      stopWatching();
      await claims.close();
    },
  };
}
