import { describe, expect, it, vi } from 'vitest';
import { type WindowAnswer, windowedLoader } from '#renderer/shared/windowed/windowed-loader.ts';
import { PAGE_SIZE, type Pages, rowAt, STALE } from '#renderer/shared/windowed/windowed-pages.ts';
import { deferred, settle } from './fake-api.ts';

type Row = { id: string };
type Ask = { offset: number; answer: ReturnType<typeof deferred<WindowAnswer<Row>>> };

/** A loader over a list of `total` rows whose answers the test releases one by one. */
function harness(total: number) {
  const state: { pages: Pages<Row>; total: number | null } = { pages: new Map(), total: null };
  const asked: Ask[] = [];
  const fetch = vi.fn((offset: number) => {
    const answer = deferred<WindowAnswer<Row>>();
    asked.push({ offset, answer });
    return answer.promise;
  });
  const failed = vi.fn();
  const loader = windowedLoader<Row, WindowAnswer<Row>>({
    fetch,
    read: () => state,
    write: (pages, answer) => {
      state.pages = pages;
      if (answer) state.total = answer.total;
    },
    failed,
  });
  const answer = async (ask: Ask, prefix = 'r') => {
    const count = Math.max(0, Math.min(PAGE_SIZE, total - ask.offset));
    ask.answer.resolve({
      rows: Array.from({ length: count }, (_, i) => ({ id: `${prefix}${ask.offset + i}` })),
      total,
    });
    await settle();
  };
  return { state, asked, fetch, failed, loader, answer };
}

describe('windowed loader', () => {
  it('asks for the visible pages and, once the list’s length is known, their margin, once each', async () => {
    const { loader, asked, answer, state, fetch } = harness(500);
    loader.refresh();
    expect(asked.map((ask) => ask.offset)).toEqual([0]);
    await answer(asked[0] as Ask);
    expect(asked.map((ask) => ask.offset)).toEqual([0, 50]);
    await answer(asked[1] as Ask);
    expect(rowAt(state.pages, 60)?.id).toBe('r60');
    loader.ensureVisible();
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('drops an answer to an older query', async () => {
    const { loader, asked, answer, state } = harness(500);
    loader.refresh();
    loader.newQuery();
    state.pages = new Map();
    loader.ensureVisible();
    expect(asked.map((ask) => ask.offset)).toEqual([0, 0]);
    await answer(asked[0] as Ask, 'old');
    expect(state.pages.size).toBe(0);
    await answer(asked[1] as Ask, 'new');
    expect(rowAt(state.pages, 0)?.id).toBe('new0');
  });

  it('coalesces refreshes while a load is on its way: one more load after it, not one per push', async () => {
    const { loader, asked, answer } = harness(20);
    loader.refresh();
    expect(asked).toHaveLength(1);
    for (let i = 0; i < 10; i++) loader.refresh();
    expect(asked).toHaveLength(1);
    await answer(asked[0] as Ask);
    expect(asked).toHaveLength(2);
  });

  it('after a local patch, refreshes only if a load predating it is on its way', async () => {
    const { loader, asked, answer } = harness(20);
    loader.refresh();
    await answer(asked[0] as Ask);
    loader.patched();
    expect(asked).toHaveLength(1);

    loader.refresh();
    loader.patched();
    await answer(asked[1] as Ask);
    expect(asked).toHaveLength(3);
  });

  it('asks again for a page a patch left short only when its gap is on screen', async () => {
    const { loader, asked, answer, state } = harness(500);
    loader.showRange({ start: 0, end: 10 });
    await answer(asked[0] as Ask);
    await answer(asked[1] as Ask);
    state.pages = new Map(state.pages).set(50, { rows: [], generation: STALE });
    loader.patched();
    expect(asked).toHaveLength(2);
    state.pages = new Map(state.pages).set(0, { rows: [], generation: STALE });
    loader.patched();
    expect(asked.map((ask) => ask.offset)).toEqual([0, 50, 0, 50]);
  });

  it('reports a failed load of the current query', async () => {
    const { loader, asked, failed } = harness(20);
    loader.refresh();
    asked[0]?.answer.reject(new Error('offline'));
    await settle();
    expect(failed).toHaveBeenCalledWith(new Error('offline'));
  });
});
