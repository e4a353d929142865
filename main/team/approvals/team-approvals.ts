// Four eyes on a team's desk: what waits is in the team store (approval-store.ts), its payload and the
// checker's note sealed here with the team key before they leave the desk and opened here when read. Every
// desk hears every change live (LISTEN on the approvals' channel) and sweeps expired approvals now and then:
// the store's clock decides, the first desk to sweep one audits its expiry and deletes its payload.
import { randomUUID } from 'node:crypto';
import type { ApprovalKind } from '#contract/approvals.ts';
import type { PersonalCipher, PersonalPlace } from '#main/data/journal/personal.ts';
import type { Approvals, StoredApproval } from '#main/features/team-interfaces/approvals.ts';
import type { TeamSettingsAccess } from '#main/features/team-interfaces/claims.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import type { ApprovalRow, ApprovalStore } from './approval-store.ts';

/** How often a desk sweeps expired approvals: an expiry is hours, a minute late is on time. */
export const APPROVAL_SWEEP_EVERY_MS = 60_000;

export interface TeamApprovalsOptions {
  store: ApprovalStore;
  settings: Pick<TeamSettingsAccess, 'get'>;
  cipher: PersonalCipher;
  /** Starts hearing the store's notifications on the approvals' channel; returns its stop. */
  listen(onChange: () => void): () => Promise<void>;
  log: Logger;
  /** Starts the periodic sweep; returns its stop. Tests pass their own to sweep when they choose. */
  every?: (ms: number, run: () => void) => () => void;
}

/** Where an approval's sealed payload or note lives: its AAD, so a value cannot be moved to another row. */
export const approvalPlace = (id: string, column: 'payload' | 'note'): PersonalPlace => ({
  table: 'approvals',
  id,
  column,
});
const place = approvalPlace;

const intervalTimer = (ms: number, run: () => void) => {
  const timer = setInterval(run, ms);
  timer.unref?.();
  return () => clearInterval(timer);
};

export function teamApprovals(options: TeamApprovalsOptions): Approvals {
  const { store, cipher, log } = options;
  const watchers = new Set<(approval: StoredApproval) => void>();
  const opened = ({ sealedNote, ...row }: ApprovalRow): StoredApproval => ({
    ...row,
    note: sealedNote === null ? null : cipher.open(place(row.id, 'note'), sealedNote),
  });
  const read = async (id: string) => {
    const row = await store.get(id);
    return row ? opened(row) : null;
  };
  const reread = async (id: string) => {
    const approval = await read(id);
    if (!approval) throw new Error(`approval ${id} vanished after a change`);
    return approval;
  };

  // A notification names no row (a transaction may change several): what is open now, and what changed
  // since the last look, is told to the watchers.
  let seen = new Map<string, string>();
  const look = async () => {
    const open = (await store.open()).map(opened);
    const now = new Map(open.map((approval) => [approval.id, JSON.stringify(approval)]));
    const changed = open.filter((approval) => seen.get(approval.id) !== now.get(approval.id));
    const closed = [...seen.keys()].filter((id) => !now.has(id));
    seen = now;
    for (const id of closed) {
      const approval = await read(id);
      if (approval) changed.push(approval);
    }
    for (const approval of changed) for (const watcher of watchers) watcher(approval);
  };
  const lookLater = () => {
    look().catch((error: unknown) => log.warn('approvals not read', describeError(error)));
  };
  const stopListening = options.listen(lookLater);
  const stopSweeping = (options.every ?? intervalTimer)(APPROVAL_SWEEP_EVERY_MS, () => {
    store.expire().catch((error: unknown) => log.warn('expired approvals not swept', describeError(error)));
  });

  return {
    async required() {
      const { fourEyes } = await options.settings.get();
      return { retry: fourEyes.retry, exportNames: fourEyes.exportNames };
    },
    async request(kind: ApprovalKind, customerId, payload) {
      const id = randomUUID();
      await store.request(id, kind, customerId, cipher.seal(place(id, 'payload'), payload));
      return reread(id);
    },
    open: async () => (await store.open()).map(opened),
    async latestFor(customerId) {
      const row = await store.latestFor(customerId);
      return row ? opened(row) : null;
    },
    get: read,
    async payload(id) {
      const sealed = await store.sealedPayload(id);
      return sealed === null ? null : cipher.open(place(id, 'payload'), sealed);
    },
    async decide(id, approve, note) {
      const { payload } = await store.decide(id, approve, cipher.seal(place(id, 'note'), note));
      return {
        approval: await reread(id),
        payload: payload === null ? null : cipher.open(place(id, 'payload'), payload),
      };
    },
    async finish(id, outcome) {
      const { payload } = await store.finish(id, outcome);
      return {
        approval: await reread(id),
        payload: payload === null ? null : cipher.open(place(id, 'payload'), payload),
      };
    },
    async cancel(id) {
      await store.cancel(id);
      return reread(id);
    },
    watch(listener) {
      watchers.add(listener);
      if (watchers.size === 1) lookLater();
      return () => watchers.delete(listener);
    },
    async close() {
      stopSweeping();
      await stopListening();
    },
  };
}
