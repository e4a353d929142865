import { type CustomerInput, validateCustomerCreate } from '#contract/customer-rules.ts';
import type { SubmitResult } from '#contract/drafts.ts';
import { DeskError } from '#contract/errors.ts';
import { refusal } from '#main/data/failures.ts';
import type { Journal, JournalRepositories, OutboxEntry } from '#main/data/journal/index.ts';
import { customerBody } from '../form.ts';
import type { ProgressTracker } from './progress.ts';
import { isEditable, transitions } from './states.ts';
import type { BodyCache } from './work.ts';

const FIRST_CHUNK = 16;
const SUBMIT_CHUNK = 200;

export interface SubmitContext {
  journal: Journal;
  now(): Date;
  signal: AbortSignal;
  bodies: BodyCache;
  progress: ProgressTracker;
  /** These drafts were queued (their keys committed, read back here): announce them and start sending. */
  queued(drafts: readonly { id: string; entry?: OutboxEntry }[]): void;
}

/**
 * One draft submitted, inside the caller's transaction: checked with the contract rules and, if it passes,
 * queued with its key (committed with the transaction). Says in `result` what became of it. Shared by the
 * desk's own outbox and the team outbox (main/team/outbox/submit.ts).
 */
export async function admitDraft(
  tx: JournalRepositories,
  id: string,
  today: Date,
  result: SubmitResult,
): Promise<{ entry: OutboxEntry; body: CustomerInput } | undefined> {
  const draft = await tx.drafts.get(id);
  if (!draft) {
    result.skipped.push({ id, reason: 'Vetted has no such draft.' });
    return undefined;
  }
  // Only a draft that needs attention has an outbox entry that matters here.
  const entry = draft.state === 'attention' ? await tx.outbox.get(id) : undefined;
  if (!isEditable(draft.state, entry)) {
    result.skipped.push({ id, reason: `It cannot be submitted while ${draft.state}.` });
    return undefined;
  }
  const body = customerBody(draft.form);
  const errors = validateCustomerCreate(body, { today });
  if (errors.length > 0) {
    result.invalid.push({ id, errors });
    return undefined;
  }
  const queued = await transitions.queue(tx, draft.id);
  result.queued.push(id);
  return { entry: queued, body };
}

/** Submitting drafts: each checked with the contract rules and queued, with its key, if it passes. */
export function draftSubmitter(ctx: SubmitContext) {
  const { journal, progress } = ctx;

  /** Validates one draft and queues it with its key if it passes; says which in `result`. */
  async function admit(
    tx: JournalRepositories,
    id: string,
    today: Date,
    result: SubmitResult,
  ): Promise<OutboxEntry | undefined> {
    const admitted = await admitDraft(tx, id, today, result);
    if (!admitted) return undefined;
    ctx.bodies.set(id, admitted.body);
    return admitted.entry;
  }

  async function submit(ids: readonly string[]): Promise<SubmitResult> {
    const result: SubmitResult = { queued: [], invalid: [], skipped: [] };
    const unique = [...new Set(ids)];
    const today = ctx.now();
    // The bar counts every draft submitted; a refused one is done at once.
    progress.hold();
    progress.add(unique);
    try {
      // A small first chunk gets requests going at once; then larger ones, each one transaction (one sync).
      for (let start = 0, size = FIRST_CHUNK; start < unique.length; start += size, size = SUBMIT_CHUNK) {
        // Between chunks, answers come in and requests go out.
        if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const chunk = unique.slice(start, start + size);
        if (ctx.signal.aborted) {
          result.skipped.push(...chunk.map((id) => ({ id, reason: 'Vetted is closing.' })));
          continue;
        }
        // Each chunk's keys are committed before any of its requests leaves.
        const admitted = await journal.transaction(async (tx) => {
          const passed: { id: string; entry: OutboxEntry }[] = [];
          for (const id of chunk) {
            const entry = await admit(tx, id, today, result);
            if (entry) passed.push({ id, entry });
          }
          return passed;
        });
        const refused = new Set(chunk);
        for (const { id } of admitted) refused.delete(id);
        for (const id of refused) progress.settle(id);
        ctx.queued(admitted);
      }
    } finally {
      progress.release();
    }
    return result;
  }

  /** "Try again" on a draft that needs attention. */
  async function tryAgain(id: string): Promise<void> {
    const requeued = await journal.transaction(async (tx) => {
      const draft = await tx.drafts.summary(id);
      if (!draft) throw new DeskError('NotFound', 'Vetted has no such draft.');
      if (draft.state !== 'attention') {
        throw new DeskError('NotNeeded', 'Only a draft that needs attention can be tried again.');
      }
      if (!(await tx.outbox.get(id))?.maybeCreated) return false;
      // The same key and the same form: the service answers with what it did the first time, if anything.
      await transitions.requeue(tx, id);
      return true;
    });
    if (requeued) {
      progress.add([id]);
      ctx.queued([{ id }]);
      return;
    }
    const { invalid } = await submit([id]);
    if (invalid[0]) {
      throw refusal.invalid('InvalidDraft', invalid[0].errors);
    }
  }

  return { submit, tryAgain };
}
