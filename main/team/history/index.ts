// The desk's side of bringing its history into the team it joined, and keeping a copy when it leaves (#30):
// both reach the store on a short-lived pool of their own, as this reviewer, with the team the settings and
// the vault hold. The same on a desk still running solo after joining and on one running on the team: what
// is brought is what the desk's own journal holds of its solo work (rows without a team change number).

import { DeskError } from '#contract/errors.ts';
import type { HistoryBrought, HistoryOffer, HistoryProgress, KeptCopy } from '#contract/team-history.ts';
import type { SqliteJournal } from '#main/data/journal/index.ts';
import type { Clock } from '#main/data/journal/time.ts';
import type { SettingsStore } from '#main/ground/config/settings-store.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import type { Vault } from '#main/ground/vault/vault.ts';
import { type JoinedTeam, joinedTeam } from '../joined.ts';
import { loadTeamKeys } from '../keys/key-ring.ts';
import { TASK_POOL } from '../store/connection-budget.ts';
import { checkTeamStore, openTeamPool } from '../store/pool.ts';
import { teamFailure } from '../team-failures.ts';
import { bringHistory, ownEntry } from './bring.ts';
import { keepTeamCopy } from './keep.ts';

export interface DeskHistoryOptions {
  local: SqliteJournal;
  settings: Pick<SettingsStore, 'get'>;
  vault: Pick<Vault, 'get'>;
  clock: Clock;
  log: Logger;
  onProgress(progress: HistoryProgress): void;
  /** Tests: items per transaction. */
  batch?: number;
}

export interface DeskHistoryAccess {
  offer(): Promise<HistoryOffer>;
  bring(): Promise<HistoryBrought>;
  /** Before the team's secrets are forgotten: copies what this reviewer did there onto the desk. */
  keepOnLeave(): Promise<KeptCopy>;
}

export function deskHistoryAccess(options: DeskHistoryOptions): DeskHistoryAccess {
  const { local, log } = options;
  let bringing: Promise<HistoryBrought> | null = null;

  /** Runs `work` on a pool of its own on the joined team's store, checked first; failures in words. */
  const onStore = async <T>(
    team: JoinedTeam,
    work: (pool: ReturnType<typeof openTeamPool>) => Promise<T>,
  ) => {
    const pool = openTeamPool(team.connection, team.password, {
      max: TASK_POOL,
      applicationName: 'vetted-desk-history',
      onIdleError: () => undefined,
    });
    try {
      await checkTeamStore(pool, team.teamKey);
      return await work(pool);
    } catch (error) {
      throw teamFailure(error, team.connection);
    } finally {
      await pool.end();
    }
  };

  const joined = () => {
    const team = joinedTeam(options.settings, options.vault);
    if (!team) throw new DeskError('TeamNotJoined', 'This desk is not on a team: join one with your code.');
    return team;
  };

  return {
    async offer() {
      const [{ notes, customers }, drafts] = await Promise.all([
        local.history.counts(),
        local.drafts.countByState(),
      ]);
      let auditEntries = 0;
      for (let after = 0; ; ) {
        const page = await local.audit.linked({ afterSeq: after, limit: 1000 });
        if (page.length === 0) break;
        auditEntries += page.filter(ownEntry).length;
        after = page.at(-1)?.seq ?? after;
      }
      return { notes, auditEntries, customers, drafts: drafts.queued };
    },

    bring() {
      // One run at a time: a second click waits for the first and answers the same.
      bringing ??= (async () => {
        const team = joined();
        // The store's current data key and audit key, unwrapped with the team key (envelope keys).
        return onStore(team, async (pool) => {
          const { cipher, sealer } = await loadTeamKeys(pool, team.teamKey);
          return bringHistory({
            local,
            pool,
            cipher,
            sealer,
            clock: options.clock,
            log,
            onProgress: options.onProgress,
            ...(options.batch ? { batch: options.batch } : {}),
          });
        });
      })().finally(() => {
        bringing = null;
      });
      return bringing;
    },

    async keepOnLeave() {
      const team = joinedTeam(options.settings, options.vault);
      if (!team) return { auditEntries: 0, notes: 0 };
      try {
        return await onStore(team, (pool) =>
          keepTeamCopy({ local, pool, teamId: team.teamId, login: team.connection.user }),
        );
      } catch (error) {
        const failure = teamFailure(error, team.connection);
        log.warn('leaving: no copy of the team’s entries kept', { code: failure.code });
        return {
          auditEntries: 0,
          notes: await local.history.teamNotesBy(team.connection.user),
          problem: `No copy of your team audit entries was kept: ${failure.message}`,
        };
      }
    },
  };
}
