import { randomUUID } from 'node:crypto';
import type { DraftStatus } from '#contract/drafts.ts';
import { DeskError } from '#contract/errors.ts';
import { type AddSamplesResult, isSampleEmail, SAMPLE_EMAIL_DOMAIN } from '#contract/sandbox-panel.ts';
import type { Handlers } from '#main/ground/serve.ts';
import type { RunningSandbox } from '#sandbox/index.ts';
import type { DeskContext, Feature } from '../feature.ts';
import { FINISH_REVIEWS_SECONDS } from './panel.ts';
import { type SampleCustomer, sampleEmail, sampleForm, samplesFor } from './sample-recipe.ts';

/** The desk's own channels the samples go through: a reviewer's New customer, note and upload. */
export type SampleDesk = Pick<
  Handlers,
  | 'drafts.create'
  | 'drafts.save'
  | 'drafts.submit'
  | 'drafts.get'
  | 'notes.add'
  | 'documents.upload'
  | 'queue.window'
>;

export interface SamplesOptions {
  desk: SampleDesk;
  /** Why this desk may not add samples (a team's queue is shared and real), or null: chosen at composition. */
  refusal: string | null;
  /** How long to wait for a sample's draft to become a customer. */
  timeoutMs?: number;
}

export const NOT_SANDBOX_SAMPLES =
  'Sample customers are only for the built-in sandbox; Vetted is connected to your service.';

export const SAMPLES_IN_A_TEAM =
  'Sample customers are only for a desk on its own: a team’s queue is shared, so Vetted adds none there.';

/** A PNG as far as the sandbox looks (its first bytes). */
const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString(
  'base64',
);
const CALL = { host: 'browser' } as const;

/**
 * "Add sample customers": a dozen customers across the statuses, each made through the drafts' create path
 * (draft → submit → the outbox's POST with its Idempotency-Key), then a note or an upload where the recipe
 * says. Samples already in the queue (by their fixed e-mails) are left alone, so a second call adds nothing.
 */
export function samplesFeature(context: DeskContext, options: SamplesOptions): Feature<'sandbox.addSamples'> {
  const { desk } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;

  const existingEmails = async (): Promise<Set<string>> => {
    const found = new Set<string>();
    for (const section of ['all', 'drafts'] as const) {
      const page = await desk['queue.window'](
        { section, search: SAMPLE_EMAIL_DOMAIN, offset: 0, limit: 200 },
        CALL,
      );
      for (const row of page.rows) if (isSampleEmail(row.email)) found.add(row.email!.toLowerCase());
    }
    return found;
  };

  // The draft's own news (`draft.updated`, which the outbox emits as it sends), heard from before it is read,
  // so a change between the read and the subscription is not missed; bounded by `timeoutMs`.
  const createdCustomer = (draftId: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const refused = () =>
        new DeskError('SandboxRefused', 'The sandbox did not take a sample customer; try again.');
      const done = (outcome: () => void) => {
        clearTimeout(timer);
        unsubscribe();
        outcome();
      };
      const judge = (draft: Pick<DraftStatus, 'state' | 'customerId'>) => {
        if (draft.state === 'created' && draft.customerId) done(() => resolve(draft.customerId!));
        else if (draft.state === 'rejected' || draft.state === 'attention') done(() => reject(refused()));
      };
      const timer = setTimeout(() => done(() => reject(refused())), timeoutMs);
      const unsubscribe = context.events.subscribe((event, payload) => {
        if (event === 'draft.updated' && (payload as DraftStatus).id === draftId)
          judge(payload as DraftStatus);
      });
      Promise.resolve(desk['drafts.get']({ id: draftId }, CALL)).then(judge, (error: unknown) =>
        done(() => reject(error)),
      );
    });

  const finish = async (sample: SampleCustomer, draftId: string): Promise<boolean> => {
    if (!sample.note && !sample.upload) return false;
    const customerId = await createdCustomer(draftId);
    if (sample.note) await desk['notes.add']({ customerId, text: sample.note }, CALL);
    if (!sample.upload) return false;
    await desk['documents.upload'](
      {
        customerId,
        uploadId: randomUUID(),
        documentType: 'passport',
        fileName: sample.upload,
        bytesBase64: PNG_BASE64,
      },
      CALL,
    );
    return true;
  };

  const add = async (sandbox: RunningSandbox): Promise<AddSamplesResult> => {
    const samples = samplesFor(sandbox.profile);
    const there = await existingEmails();
    const missing = samples.filter((sample) => !there.has(sampleEmail(sample)));
    const drafts: [SampleCustomer, string][] = [];
    for (const sample of missing) {
      const { id } = await desk['drafts.create'](undefined, CALL);
      await desk['drafts.save']({ id, form: sampleForm(sample) }, CALL);
      drafts.push([sample, id]);
    }
    if (drafts.length > 0) await desk['drafts.submit']({ ids: drafts.map(([, id]) => id) }, CALL);
    let uploaded = false;
    for (const [sample, id] of drafts) uploaded = (await finish(sample, id)) || uploaded;
    // The upload's review falls due at once, as the Sandbox panel's "Finish reviews" does it.
    if (uploaded) await sandbox.advanceClock(FINISH_REVIEWS_SECONDS);
    return { added: drafts.length, alreadyThere: samples.length - missing.length };
  };

  return {
    handlers: {
      async 'sandbox.addSamples'() {
        if (options.refusal) throw new DeskError('NotSandbox', options.refusal);
        const sandbox = context.connection().sandbox;
        if (!sandbox) throw new DeskError('NotSandbox', NOT_SANDBOX_SAMPLES);
        return add(sandbox);
      },
    },
  };
}
