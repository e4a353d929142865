import type { DraftChannel, DraftStatus, DraftView, OutboxStatus } from '../../contract/drafts.ts';
import { DeskError } from '../../contract/errors.ts';
import type { ServiceStatus } from '../../contract/settings.ts';
import type { DeskContext, Feature } from '../feature.ts';
import type { Draft, DraftSummary, OutboxEntry } from '../journal/index.ts';
import type { Handlers } from '../serve.ts';
import { createOneTimeRetry } from './one-time-retry.ts';
import { createOutbox, isEditable } from './outbox/index.ts';

/**
 * Drafts of new customers (autosaved, encrypted in the journal), the outbox that turns them into customers
 * exactly once, and the one-time retry. Events carry states only: a draft's form leaves main only when the
 * reviewer opens that draft (`drafts.get`).
 */
export function draftsFeature(context: DeskContext): Feature<DraftChannel> {
  const { journal, events, log } = context;
  const client = () => context.connection().client();

  const statusOf = (summary: DraftSummary, entry: OutboxEntry | undefined): DraftStatus => {
    const editable = isEditable(summary.state, entry);
    const duplicateOf = summary.state === 'rejected' ? (entry?.duplicateOf ?? null) : null;
    return {
      id: summary.id,
      state: summary.state === 'queued' && outbox.isSending(summary.id) ? 'sending' : summary.state,
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
  };
  const status = (id: string): DraftStatus => {
    const summary = journal.drafts.summary(id);
    if (!summary) throw new DeskError('NotFound', 'Vetted has no such draft; it may have been discarded.');
    return statusOf(summary, journal.outbox.get(id));
  };
  const view = (draft: Draft): DraftView => ({
    ...statusOf(draft, journal.outbox.get(draft.id)),
    created: draft.created,
    form: draft.form,
  });
  const requireDraft = (id: string): Draft => {
    const draft = journal.drafts.get(id);
    if (!draft) throw new DeskError('NotFound', 'Vetted has no such draft; it may have been discarded.');
    return draft;
  };
  /** Saving and discarding: only while nothing can have been created from the draft. */
  const requireEditable = (id: string, doing: string): void => {
    const draft = status(id);
    if (!draft.actions.edit) {
      throw new DeskError('DraftLocked', `This draft cannot be ${doing} while it is ${draft.state}.`);
    }
  };
  const announce = (id: string) => {
    const summary = journal.drafts.summary(id);
    if (summary) events.emit('draft.updated', statusOf(summary, journal.outbox.get(id)));
  };

  const outbox = createOutbox({
    journal,
    log,
    client,
    canSend: () => context.connection().status().state !== 'not-configured',
    onDraftChange: announce,
    onCustomerChange: (row) => events.emit('customer.updated', row),
    onProgress: (progress) => events.emit('job.progress', progress),
  });
  const retry = createOneTimeRetry({ journal, client, reconciler: context.reconciler });

  // Back online: queued drafts go now rather than at the end of their backoff.
  let online = false;
  const unsubscribe = events.subscribe((event, payload) => {
    if (event !== 'service.status') return;
    const isOnline = (payload as ServiceStatus).state === 'online';
    if (isOnline && !online) queueMicrotask(() => outbox.wake());
    online = isOnline;
  });

  const outboxStatus = (): OutboxStatus => {
    const counts = journal.drafts.countByState();
    const activity = outbox.activity();
    counts.sending = activity.inFlight;
    counts.queued = Math.max(0, counts.queued - activity.inFlight);
    return {
      counts,
      online: context.connection().status().state === 'online',
      draining: activity.draining,
      inFlight: activity.inFlight,
      nextAttemptAt: activity.nextAttemptAt,
    };
  };

  const handlers: Pick<Handlers, DraftChannel> = {
    'drafts.create'() {
      const draft = journal.drafts.insert({ form: { type: 'personal' } });
      announce(draft.id);
      return view(draft);
    },
    'drafts.get': ({ id }) => view(requireDraft(id)),
    'drafts.list'() {
      const entries = new Map(journal.outbox.list().map((entry) => [entry.draftId, entry]));
      return { drafts: journal.drafts.list().map((summary) => statusOf(summary, entries.get(summary.id))) };
    },
    'drafts.save'({ id, form }) {
      const savedAt = journal.transaction(() => {
        requireEditable(id, 'changed');
        return journal.drafts.saveForm(id, form);
      });
      if (!savedAt) throw new DeskError('NotFound', 'Vetted has no such draft; it may have been discarded.');
      announce(id);
      return { id, savedAt };
    },
    'drafts.discard'({ id }) {
      journal.transaction(() => {
        requireEditable(id, 'discarded');
        journal.drafts.remove(id);
        journal.audit.record({ action: 'draft.discard', outcome: 'ok', detail: `draft ${id}` });
      });
      events.emit('draft.discarded', { id });
      return { id, discarded: true };
    },
    'drafts.submit': ({ ids }) => outbox.submit(ids),
    async 'drafts.tryAgain'({ id }) {
      await outbox.tryAgain(id);
      return status(id);
    },
    async 'drafts.linkDuplicate'({ id }) {
      await outbox.linkDuplicate(id);
      return status(id);
    },
    'outbox.status': () => outboxStatus(),
    'retry.prefill': ({ customerId }) => retry.prefill(customerId),
    'retry.submit': (input) => retry.submit(input),
  };

  return {
    handlers,
    // Start-up (after the reconcile has started) and every reconnection: drain what is queued.
    onConnected: () => outbox.resume(),
    async close() {
      unsubscribe();
      await outbox.close();
    },
  };
}
