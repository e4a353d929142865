import type { DraftChannel, DraftStatus, DraftView, OutboxStatus, SubmitResult } from '#contract/drafts.ts';
import { DeskError } from '#contract/errors.ts';
import type { ServiceStatus } from '#contract/settings.ts';
import { refusal } from '#main/data/failures.ts';
import type { Draft, DraftSummary, JournalRepositories, OutboxEntry } from '#main/data/journal/index.ts';
import { describeError } from '#main/ground/log/logger.ts';
import type { Handlers } from '#main/ground/serve.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Approvals } from '../team-interfaces/approvals.ts';
import type { Claims } from '../team-interfaces/claims.ts';
import type { DraftDestination, DraftDestinationFactory } from './destination.ts';
import { createOneTimeRetry, type OneTimeRetry } from './one-time-retry.ts';
import { createOutbox, isEditable, type Outbox } from './outbox/index.ts';

/** What the channels work with; `isSending` tells a queued draft the outbox is sending right now. */
interface DraftsDesk {
  journal: DeskContext['journal'];
  events: DeskContext['events'];
  log: DeskContext['log'];
  isSending(id: string): boolean;
}

function statusOf(desk: DraftsDesk, summary: DraftSummary, entry: OutboxEntry | undefined): DraftStatus {
  const editable = isEditable(summary.state, entry);
  const duplicateOf = summary.state === 'rejected' ? (entry?.duplicateOf ?? null) : null;
  return {
    id: summary.id,
    state: summary.state === 'queued' && desk.isSending(summary.id) ? 'sending' : summary.state,
    updated: summary.updated,
    customerId: summary.customerId,
    attempts: summary.attempts,
    nextAttemptAt: summary.nextAttemptAt,
    problem: summary.lastError,
    fieldErrors: summary.fieldErrors,
    duplicateOf,
    actions: {
      edit: editable,
      submit: editable && summary.state !== 'attention',
      tryAgain: summary.state === 'attention',
      discard: editable,
      linkDuplicate: duplicateOf !== null,
    },
  };
}

async function status(
  desk: DraftsDesk,
  id: string,
  repos: JournalRepositories = desk.journal,
): Promise<DraftStatus> {
  const summary = await repos.drafts.summary(id);
  if (!summary) throw refusal.noSuchDraft();
  return statusOf(desk, summary, await repos.outbox.get(id));
}

const view = async (desk: DraftsDesk, draft: Draft): Promise<DraftView> => ({
  ...statusOf(desk, draft, await desk.journal.outbox.get(draft.id)),
  created: draft.created,
  form: draft.form,
});

async function requireDraft({ journal }: DraftsDesk, id: string): Promise<Draft> {
  const draft = await journal.drafts.get(id);
  if (!draft) throw refusal.noSuchDraft();
  return draft;
}

/** Saving and discarding: only while nothing can have been created from the draft. */
async function requireEditable(
  desk: DraftsDesk,
  tx: JournalRepositories,
  id: string,
  doing: string,
): Promise<void> {
  const draft = await status(desk, id, tx);
  if (!draft.actions.edit) {
    throw new DeskError('DraftLocked', `This draft cannot be ${doing} while it is ${draft.state}.`);
  }
}

/** Tells the renderer how a draft stands now; the outbox calls it at every change. */
function announce(desk: DraftsDesk, id: string): void {
  void Promise.all([desk.journal.drafts.summary(id), desk.journal.outbox.get(id)]).then(
    ([summary, entry]) => summary && desk.events.emit('draft.updated', statusOf(desk, summary, entry)),
    (error: unknown) => desk.log.warn('draft change not announced', { draftId: id, ...describeError(error) }),
  );
}

/** Drafts that left this desk (for the team outbox) leave its list; those still here show how they stand. */
function announceMoved({ events }: DraftsDesk, { moved }: { moved: readonly string[] }): void {
  for (const id of moved) events.emit('draft.discarded', { id });
}

async function submit(
  desk: DraftsDesk,
  destination: DraftDestination,
  ids: readonly string[],
): Promise<SubmitResult> {
  const { queued, invalid, skipped, moved, waiting } = await destination.submit(ids);
  announceMoved(desk, { moved });
  for (const id of waiting) announce(desk, id);
  return { queued, invalid, skipped };
}

async function outboxStatus(context: DeskContext, outbox: Outbox): Promise<OutboxStatus> {
  const counts = await context.journal.drafts.countByState();
  const activity = await outbox.activity();
  counts.sending = activity.inFlight;
  counts.queued = Math.max(0, counts.queued - activity.inFlight);
  return {
    counts,
    online: context.connection().status().state === 'online',
    draining: activity.draining,
    inFlight: activity.inFlight,
    nextAttemptAt: activity.nextAttemptAt,
  };
}

/** Back online: queued drafts go now rather than at the end of their backoff. */
function wakeWhenOnline({ events }: DraftsDesk, outbox: Outbox): () => void {
  let online = false;
  return events.subscribe((event, payload) => {
    if (event !== 'service.status') return;
    const isOnline = (payload as ServiceStatus).state === 'online';
    if (isOnline && !online) queueMicrotask(() => outbox.wake());
    online = isOnline;
  });
}

/** The drafts' own channels: create, open, list, save and discard, each announced as it changes. */
function draftEditing(
  desk: DraftsDesk,
): Pick<Handlers, 'drafts.create' | 'drafts.get' | 'drafts.list' | 'drafts.save' | 'drafts.discard'> {
  const { journal, events } = desk;
  return {
    async 'drafts.create'() {
      const draft = await journal.drafts.insert({ form: { type: 'personal' } });
      announce(desk, draft.id);
      return view(desk, draft);
    },
    'drafts.get': async ({ id }) => view(desk, await requireDraft(desk, id)),
    async 'drafts.list'() {
      const entries = new Map((await journal.outbox.list()).map((entry) => [entry.draftId, entry]));
      const summaries = await journal.drafts.list();
      return { drafts: summaries.map((summary) => statusOf(desk, summary, entries.get(summary.id))) };
    },
    async 'drafts.save'({ id, form }) {
      const savedAt = await journal.transaction(async (tx) => {
        await requireEditable(desk, tx, id, 'changed');
        return tx.drafts.saveForm(id, form);
      });
      if (!savedAt) throw refusal.noSuchDraft();
      announce(desk, id);
      return { id, savedAt };
    },
    async 'drafts.discard'({ id }) {
      await journal.transaction(async (tx) => {
        await requireEditable(desk, tx, id, 'discarded');
        await tx.drafts.remove(id);
        await tx.audit.record({ action: 'draft.discard', outcome: 'ok', detail: `draft ${id}` });
      });
      events.emit('draft.discarded', { id });
      return { id, discarded: true };
    },
  };
}

/**
 * Drafts of new customers (autosaved, encrypted in the journal), the outbox that turns them into customers
 * exactly once, and the one-time retry. Events carry states only: a draft's form leaves main only when the
 * reviewer opens that draft (`drafts.get`).
 */
export function draftsFeature(
  context: DeskContext,
  options: {
    destination: DraftDestinationFactory;
    claims: Pick<Claims, 'beforeChange'>;
    approvals: Pick<Approvals, 'required' | 'request'>;
  },
): Feature<DraftChannel> & { retry: OneTimeRetry } {
  const { journal, events, log } = context;
  const client = () => context.connection().client();
  const desk: DraftsDesk = { journal, events, log, isSending: (id) => outbox.isSending(id) };
  const outbox = createOutbox({
    journal,
    log,
    client,
    canSend: () => destination.sendsFromHere() && context.connection().status().state !== 'not-configured',
    onDraftChange: (id) => announce(desk, id),
    onCustomerChange: (row) => events.emit('customer.updated', row),
    onProgress: (progress) => events.emit('job.progress', progress),
  });
  const destination = options.destination(outbox);
  const retry = createOneTimeRetry({
    journal,
    client,
    reconciler: context.reconciler,
    claims: options.claims,
    approvals: options.approvals,
  });
  const unsubscribe = wakeWhenOnline(desk, outbox);

  const handlers: Pick<Handlers, DraftChannel> = {
    ...draftEditing(desk),
    'drafts.submit': ({ ids }) => submit(desk, destination, ids),
    async 'drafts.tryAgain'({ id }) {
      await outbox.tryAgain(id);
      return status(desk, id);
    },
    async 'drafts.linkDuplicate'({ id }) {
      await outbox.linkDuplicate(id);
      return status(desk, id);
    },
    'outbox.status': () => outboxStatus(context, outbox),
    'retry.prefill': ({ customerId }) => retry.prefill(customerId),
    'retry.submit': (input) => retry.submit(input),
  };

  return {
    handlers,
    retry,
    // Start-up (after the reconcile has started) and every reconnection: drain what is queued, or move what
    // waited here to where drafts go.
    onConnected: () => {
      void destination.onConnected().then(
        (moved) => announceMoved(desk, moved),
        (error: unknown) => log.warn('drafts not moved to their destination', describeError(error)),
      );
    },
    async close() {
      unsubscribe();
      await outbox.close();
    },
  };
}
