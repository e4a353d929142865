/**
 * What a reviewer does at a desk in the team bench, through the desk's own channels (the contract's
 * dispatch, as the window's IPC reaches them): scrolls the queue a page of 50 at a time as the renderer asks
 * (`after` the last row held), jumps to a place further down, switches sections, searches (a common first
 * name, a rare surname, a part of a name) and scrolls the results; a drafting desk also fills in a draft and
 * submits it now and then. Every `queue.window` is timed from the call to its answer.
 */
import type { ChannelInput, ChannelName, ChannelOutput } from '#contract/channels.ts';
import type { QueueWindowInput } from '#contract/queue.ts';
import { validForm } from '#test/support/desk/drafts.ts';

export type Call = <C extends ChannelName>(channel: C, input?: ChannelInput<C>) => Promise<ChannelOutput<C>>;

export interface SubmittedDraft {
  draftId: string;
  email: string;
  /** Date.now() when `drafts.submit` answered it queued. */
  at: number;
}

export interface DeskWorkRecord {
  /** Each `queue.window`'s time, call to answer, in ms. */
  windowMs: number[];
  windowErrors: string[];
  drafts: SubmittedDraft[];
  draftErrors: string[];
}

const SECTIONS = ['all', 'all', 'verified', 'retry', 'document', 'suspended'] as const;
/** Searches as reviewers type them: a common first name (≈ 5 %), a rare surname (3 rows), parts of names. */
export const SEARCHES = ['sarah', 'Quennell', 'berg', 'mor', 'jennifer'] as const;
const PAGE = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A deterministic random stream per desk: runs can be compared. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export interface DeskWorkOptions {
  call: Call;
  /** The pause between two actions, on average (each is 0.5–1.5 × this). */
  everyMs: number;
  /** For a drafting desk: a draft submitted about this often. */
  draftEveryMs?: number;
  /** Makes each draft's e-mail unique across the bench. */
  name: string;
  random: () => number;
  stopped(): boolean;
}

/** Runs until `stopped()`; resolves with what it recorded. */
export async function deskWork(options: DeskWorkOptions): Promise<DeskWorkRecord> {
  const record: DeskWorkRecord = { windowMs: [], windowErrors: [], drafts: [], draftErrors: [] };
  const work = [reviewerScrolling(options, record)];
  if (options.draftEveryMs) work.push(reviewerDrafting(options, options.draftEveryMs, record));
  await Promise.all(work);
  return record;
}

async function reviewerScrolling(options: DeskWorkOptions, record: DeskWorkRecord): Promise<void> {
  const { call, random, stopped } = options;
  const pause = () => sleep(options.everyMs * (0.5 + random()));
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const window = async (input: QueueWindowInput) => {
    const started = performance.now();
    try {
      const answer = await call('queue.window', input);
      record.windowMs.push(performance.now() - started);
      return answer;
    } catch (error) {
      record.windowErrors.push(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  /** A few pages down from `offset`, each read after the last row of the one before, as the renderer does. */
  const scroll = async (base: Omit<QueueWindowInput, 'offset' | 'limit'>, offset: number, pages: number) => {
    let answer = await window({ ...base, offset, limit: PAGE });
    for (let page = 1; page < pages && !stopped(); page++) {
      const last = answer?.rows.at(-1);
      if (!answer || !last || answer.rows.length < PAGE) return answer;
      await pause();
      answer = await window({
        ...base,
        offset: offset + page * PAGE,
        limit: PAGE,
        after: { key: last.statusSince, id: last.id },
      });
    }
    return answer;
  };
  while (!stopped()) {
    const section = pick(SECTIONS);
    const first = await scroll({ section, search: '' }, 0, 4);
    await pause();
    const total = first?.total ?? 0;
    if (total > PAGE && !stopped()) {
      // A jump down the scrollbar: a page nobody held, read by its offset.
      await scroll({ section, search: '' }, Math.floor(random() * (total - PAGE)), 2);
      await pause();
    }
    if (stopped()) break;
    await scroll({ section: 'all', search: pick(SEARCHES) }, 0, 2);
    await pause();
  }
}

async function reviewerDrafting(
  options: DeskWorkOptions,
  everyMs: number,
  record: DeskWorkRecord,
): Promise<void> {
  const { call, random, stopped } = options;
  for (let n = 1; !stopped(); n++) {
    await sleep(everyMs * (0.5 + random()));
    if (stopped()) break;
    const email = `bench.${options.name}.${n}.${Date.now()}@example.com`;
    try {
      const { id } = await call('drafts.create');
      // A complete, valid form (the service verifies such a customer at once).
      await call('drafts.save', { id, form: validForm({ firstName: 'Bench', email }) });
      const result = await call('drafts.submit', { ids: [id] });
      if (result.queued.includes(id)) record.drafts.push({ draftId: id, email, at: Date.now() });
      else record.draftErrors.push(`draft ${n} not queued: ${JSON.stringify(result)}`);
    } catch (error) {
      record.draftErrors.push(error instanceof Error ? error.message : String(error));
    }
  }
}
