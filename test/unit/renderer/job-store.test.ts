import { describe, expect, it, vi } from 'vitest';
import type { Progress } from '#contract/customers.ts';
import { fakeApi, installFresh } from './fake-api.ts';

const progress = (done: number, finished = false): Progress => ({
  job: 'import',
  done,
  total: 10,
  finished,
  message: null,
});

async function jobs() {
  const fake = fakeApi({
    customers: {
      import: vi.fn(async () => progress(0)),
      reconcile: vi.fn(async () => Promise.reject(new Error('offline'))),
    },
  });
  await installFresh(fake);
  const { useJobStore } = await import('#renderer/shared/jobs/job-store.ts');
  return { fake, store: useJobStore };
}

describe('job store', () => {
  it('follows main’s progress reports, never letting a bar go backwards', async () => {
    const { fake, store } = await jobs();
    const stop = store.getState().watch();
    fake.push('job.progress', progress(4));
    fake.push('job.progress', progress(2));
    expect(store.getState().jobs.import?.done).toBe(4);
    fake.push('job.progress', progress(10, true));
    expect(store.getState().jobs.import?.finished).toBe(true);
    stop();
    expect(fake.listeners('job.progress')).toBe(0);
  });

  it('starts an import, and says in words when Refresh all did not start', async () => {
    const { store } = await jobs();
    await store.getState().start('import');
    expect(store.getState().jobs.import?.done).toBe(0);
    await store.getState().start('reconcile');
    expect(store.getState().problem).toBe('Refresh all did not start: offline');
  });
});
