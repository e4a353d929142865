import { afterAll, beforeAll } from 'vitest';
import type { SandboxProfile } from '#sandbox/index.ts';
import { type Harness, harness } from './helpers.ts';

/**
 * For the real-service tests (real.*.test.ts, one test per row of real-service.md): importing
 * this module gives the importing file one sandbox per profile, started before its first test
 * and closed after its last, so every row is checked on `real` and shown unchanged on `interface`.
 */
export const PROFILES = ['interface', 'real'] as const satisfies readonly SandboxProfile[];

export const sandboxes = {} as Record<SandboxProfile, Harness>;

beforeAll(async () => {
  for (const profile of PROFILES) sandboxes[profile] = await harness({ profile, reviewDelayMs: 60_000 });
});
afterAll(async () => {
  for (const profile of PROFILES) await sandboxes[profile]?.close();
});

/** Picks the value for a profile: `expected(profile, { interface: …, real: … })`. */
export const expected = <T>(profile: SandboxProfile, values: Record<SandboxProfile, T>): T => values[profile];
