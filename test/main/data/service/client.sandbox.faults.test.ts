import { describe, expect, it } from 'vitest';
import { NetworkError, RateLimitedError, ServiceError } from '#main/data/service/index.ts';
import { until } from '#test/support/poll.ts';
import { PROFILES, person, setUpOn } from './client.sandbox.setup.ts';

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe.each(PROFILES)('retries against injected faults, on the %s profile', (profile) => {
  const setUp = setUpOn(profile);
  const maxAttempts = 3;

  // The interface profile sends `Retry-After: 1`; the real one none, so the client's own back-off paces it.
  const retryAfterMs = profile === 'interface' ? 1000 : undefined;

  it('429: the sandbox’s pace honoured (or the client’s own), then given up', async () => {
    const { client, control, outcomes, sleeps } = await setUp({}, { retry: { maxAttempts } });
    const { id } = await client.customers.create(person());
    await control('/sandbox/faults', { rate: 1, kinds: ['429'], paths: ['/customers/{id}'] });
    const error = await client.customers.get(id).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, code: 'TooManyRequests', retryable: true });
    expect((error as ServiceError).retryAfterMs).toBe(retryAfterMs);
    expect(sleeps).toHaveLength(maxAttempts - 1);
    if (retryAfterMs) expect(sleeps).toEqual([retryAfterMs, retryAfterMs]);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '429': maxAttempts });
    if (retryAfterMs) return;
    // Without Retry-After the gate stays closed 30 s: the reviewer's next call is refused without asking.
    await expect(client.customers.get(id)).rejects.toBeInstanceOf(RateLimitedError);
    expect(await outcomes('GET /customers/{id}')).toEqual({ '429': maxAttempts });
  });

  it.runIf(profile === 'interface')(
    '429 with a Retry-After beyond the time budget: not waited for',
    async () => {
      // (The real profile sends no Retry-After: its 429 is the test above.)
      const { client, control, outcomes, sleeps } = await setUp(
        {},
        { retry: { maxAttempts, maxElapsedMs: 500 } },
      );
      const { id } = await client.customers.create(person());
      await control('/sandbox/faults', { rate: 1, kinds: ['429'], paths: ['/customers/{id}'] });
      await expect(client.customers.get(id)).rejects.toMatchObject({ status: 429, retryable: true });
      expect(sleeps).toEqual([]);
      expect(await outcomes('GET /customers/{id}')).toEqual({ '429': 1 });
    },
  );

  it.each(['500', '503', 'reset'])('%s: a GET is retried', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    const { id } = await client.customers.create(person());
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers/{id}'] });
    const error = await client.customers.get(id).catch((e: unknown) => e);
    expect(error instanceof ServiceError || error instanceof NetworkError).toBe(true);
    expect((error as ServiceError | NetworkError).retryable).toBe(true);
    expect(sum(await outcomes('GET /customers/{id}'))).toBe(maxAttempts);
  });

  it.each(['500', '503', 'reset'])('%s: a POST without Idempotency-Key is never re-sent', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers'] });
    const error = await client.customers.create(person()).catch((e: unknown) => e);
    expect((error as ServiceError | NetworkError).retryable).toBe(true);
    expect(sum(await outcomes('POST /customers'))).toBe(1);
  });

  it.each(['500', '503', 'reset'])('%s: a POST with an Idempotency-Key is re-sent', async (kind) => {
    const { client, control, outcomes } = await setUp({}, { retry: { maxAttempts } });
    await control('/sandbox/faults', { rate: 1, kinds: [kind], paths: ['/customers'] });
    await client.customers.create(person(), { idempotencyKey: crypto.randomUUID() }).catch(() => {});
    expect(sum(await outcomes('POST /customers'))).toBe(maxAttempts);
  });

  it('with keys, flaky creates make one customer each', async () => {
    const { client, control, stats } = await setUp({}, { retry: { maxAttempts: 8, maxElapsedMs: 60_000 } });
    await control('/sandbox/faults', { rate: 0.4, kinds: ['500', 'reset', '503'], paths: ['/customers'] });
    const inputs = Array.from({ length: 12 }, () => person());
    const results = await Promise.all(
      inputs.map((input) =>
        client.customers.create(input, { idempotencyKey: crypto.randomUUID() }).catch(() => null),
      ),
    );
    await control('/sandbox/faults', { rate: 0 });
    const created = results.filter((r) => r !== null);
    expect(new Set(created.map((r) => r.id)).size).toBe(created.length);
    for (const [i, result] of results.entries()) {
      if (!result) continue;
      await expect(client.customers.get(result.id)).resolves.toMatchObject({ email: inputs[i]!.email });
    }
    const customers = await client.customers.list({ limit: 200 });
    expect('customers' in customers && customers.total).toBeLessThanOrEqual(12);
    expect((await stats()).tokensIssued).toBe(1);
  });

  it('times out a stalled answer, retrying only the GET', async () => {
    const { client, control, outcomes, stats } = await setUp(
      {},
      { retry: { maxAttempts: 2 }, timeouts: { headersMs: 150 } },
    );
    const { id } = await client.customers.create(person());
    // Held until released (not for a time racing the client's 150 ms): the answer cannot beat the timeout.
    await control('/sandbox/faults', {
      rate: 1,
      kinds: ['delay'],
      paths: ['/customers/{id}'],
      delayMs: 60_000,
    });
    await expect(client.customers.get(id)).rejects.toMatchObject({ name: 'NetworkError', kind: 'timeout' });
    await expect(client.customers.retry(id, { ...person(), tin: '123-45-6789' })).rejects.toMatchObject({
      kind: 'timeout',
    });
    await until(async () => (await stats()).heldRequests === 3, 'two GETs and the POST held');
    await control('/sandbox/faults', { rate: 0 });
    // The sandbox counts a held request once it is answered: two GETs (one re-sent), one POST (never re-sent).
    const counted = async () => [
      sum(await outcomes('GET /customers/{id}')),
      sum(await outcomes('POST /customers/{id}')),
    ];
    await until(async () => (await counted()).join() === '2,1', 'two GETs and one POST answered');
  });
});
