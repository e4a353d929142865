// Settings → Team: the desk's side of joining and leaving a team (membership.ts does the work).
import type { AuditAction } from '#contract/audit-actions.ts';
import { DeskError } from '#contract/errors.ts';
import type { TeamStatus } from '#contract/team.ts';
import { refusal } from '../data/failures.ts';
import type { SqliteJournal } from '../data/journal/index.ts';
import type { DeskContext, Feature } from '../features/feature.ts';
import type { StorePresenceSource } from '../features/team-interfaces/store-presence.ts';
import { describeError } from '../ground/log/logger.ts';
import { deskHistoryAccess } from './history/index.ts';
import { createMembership } from './membership.ts';

type TeamChannel =
  | 'team.status'
  | 'team.presence'
  | 'team.join'
  | 'team.leave'
  | 'team.password'
  | 'team.historyOffer'
  | 'team.bringHistory'
  | 'app.restart';

export function teamFeature(
  context: DeskContext,
  options: {
    startedOn: string | null;
    deskJournal: SqliteJournal;
    /** Whether the team store answers (the variant's): each change is pushed to every window. */
    presence: StorePresenceSource;
    clock?: () => Date;
  },
): Feature<TeamChannel> {
  const { vault, settings, log, events, journal } = context;
  // The log redacts what the desk already holds, from the first line on.
  for (const name of ['teamDatabasePassword', 'teamKey'] as const) {
    const secret = vault.get(name);
    if (secret) log.addSecret(secret);
  }
  const membership = createMembership({
    vault,
    settings,
    // The team whose store this desk's journal opened at start (null: solo, or the store was not opened).
    startedOn: options.startedOn,
    onSecret: (secret) => log.addSecret(secret),
    onUnexpected: (failure) => log.warn('team store failed unexpectedly', describeError(failure.cause)),
  });

  const history = deskHistoryAccess({
    local: options.deskJournal,
    settings,
    vault,
    clock: options.clock ?? (() => new Date()),
    log,
    onProgress: (progress) => events.emit('team.historyProgress', progress),
  });

  /** Every window shows the change; the local audit trail keeps which team, never a secret. */
  const changed = async (action: AuditAction, status: TeamStatus, teamId: string | undefined) => {
    await journal.audit.record({ action, outcome: 'ok', ...(teamId ? { detail: `team ${teamId}` } : {}) });
    events.emit('team.status', status);
    return status;
  };

  /** A refusal is kept in the local audit trail by its code, never its words (they may name the login). */
  const refusedIsAudited = <T>(action: AuditAction, work: Promise<T>): Promise<T> =>
    work.catch(async (error: unknown) => {
      const detail = error instanceof DeskError ? error.code : 'failed';
      await journal.audit.record({ action, outcome: 'refused', detail });
      throw error;
    });

  const unwatchPresence = options.presence.watch((presence) => events.emit('team.presence', presence));

  return {
    close: unwatchPresence,
    handlers: {
      'team.status': () => membership.status(),
      'team.presence': () => options.presence.current(),
      // A joined or left team takes effect on the next start. The desk cannot start its own process again:
      // a host that can (Electron, main/hosts/electron/restart.ts) answers this channel instead.
      'app.restart': () => {
        throw refusal.restartByHand();
      },
      async 'team.join'({ code, password }) {
        const status = await refusedIsAudited('team.join', membership.join(code, password));
        log.info('joined a team', { teamId: status.team?.teamId });
        return changed('team.join', status, status.team?.teamId);
      },
      async 'team.password'({ password }) {
        const status = await refusedIsAudited('team.password', membership.changePassword(password));
        log.info('the team database password was changed', { teamId: status.team?.teamId });
        return changed('team.password', status, status.team?.teamId);
      },
      async 'team.leave'() {
        const teamId = settings.get().team?.teamId;
        // Before the secrets go: the copy is read from the store as this reviewer.
        const kept = await history.keepOnLeave();
        const status = await membership.leave();
        log.info('left the team', { teamId, keptAuditEntries: kept.auditEntries });
        return { ...(await changed('team.leave', status, teamId)), kept };
      },
      'team.historyOffer': () => history.offer(),
      async 'team.bringHistory'() {
        const brought = await refusedIsAudited('team.bringHistory', history.bring());
        log.info('brought this desk’s history into the team', {
          notes: brought.notes.brought,
          auditEntries: brought.auditEntries.brought,
          customers: brought.customers.brought,
          drafts: brought.drafts.moved,
        });
        return brought;
      },
    },
  };
}
