// One sandbox for every test of a file: started before the first, closed after the last.
import { afterAll, beforeAll } from 'vitest';
import type { ServiceClient } from '#main/data/service/index.ts';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '#sandbox/index.ts';
import { quickClient } from './drafts.ts';

export interface SharedSandbox {
  readonly sandbox: RunningSandbox;
  /** A client that never sleeps between its own retries. */
  readonly client: ServiceClient;
}

/** Call at the top of a test file; read `sandbox` and `client` inside hooks and tests only. */
export function sharedSandbox(options: SandboxOptions = {}): SharedSandbox {
  const shared = {} as { sandbox: RunningSandbox; client: ServiceClient };
  beforeAll(async () => {
    shared.sandbox = await startSandbox(options);
    shared.client = quickClient(shared.sandbox);
  });
  afterAll(async () => {
    await shared.client?.close();
    await shared.sandbox?.close();
  });
  return shared;
}
