import { expect, it } from 'vitest';
import { createServiceClient } from '#main/data/service/index.ts';
import { PROFILES, person, setUp } from './client.sandbox.setup.ts';

const FULL_SSN = '987-65-4321';

it.each(PROFILES)(
  '%s profile: no log line, of the client or the sandbox, carries a token, the client secret or a full SSN',
  async (profile) => {
    const setup = await setUp(
      { tokenTtlSeconds: 2, profile },
      { retry: { maxAttempts: 2 }, timeouts: { headersMs: 150 } },
    );
    const { client, sandbox, control, advance, logs, sandboxLines } = setup;
    const tokens = new Set<string>();
    const remember = async () => tokens.add(await client.token.get());
    const { id } = await client.customers.create(person());
    await remember();
    await advance(1.5);
    await client.customers.get(id);
    await remember();
    await sandbox.advanceClock(5); // expires it behind the client's back: a 401, then a renewal
    await client.customers.get(id);
    await remember();
    await client.customers.create({ ...person(), email: 'broken' }).catch(() => {});
    // The one-time retry carries the full SSN (as `ssn` on the real profile): refused once, then taken.
    const { id: retried } = await client.customers.create(person('retry'));
    const full = { ...person(), tin: FULL_SSN };
    await client.customers.retry(retried, { ...full, email: 'broken' }).catch(() => {});
    await client.customers.retry(retried, full);
    await control('/sandbox/faults', { rate: 1, kinds: ['503'], paths: ['/customers/{id}'] });
    await client.customers.get(id).catch(() => {});
    // Held until the faults are reset: the client times out (and retries once) whatever the load.
    await control('/sandbox/faults', {
      rate: 1,
      kinds: ['delay'],
      paths: ['/customers/{id}'],
      delayMs: 60_000,
    });
    await client.customers.get(id).catch(() => {});
    await control('/sandbox/faults', { rate: 0 });
    const bad = createServiceClient({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      clientSecret: `${sandbox.clientSecret}x`,
      log: (entry) => logs.push(entry),
    });
    await bad.token.get().catch(() => {});
    await bad.close();

    expect(tokens.size).toBe(3);
    expect(logs.length).toBeGreaterThan(5);
    const lines = [...logs.map((entry) => JSON.stringify(entry)), ...sandboxLines];
    for (const line of lines) {
      expect(line).not.toContain(sandbox.clientSecret);
      // The real form's Basic credentials, as sent.
      expect(line).not.toContain(
        Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64'),
      );
      for (const token of tokens) expect(line).not.toContain(token);
      expect(line).not.toContain(FULL_SSN);
      expect(line).not.toContain(FULL_SSN.replaceAll('-', ''));
    }
  },
);
