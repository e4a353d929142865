import { request } from 'undici';
import { createServiceClient, HAL_MEDIA_TYPE, type ServiceClient } from '#main/data/service/index.ts';
import { type RunningSandbox, type SandboxProfile, startSandbox } from '#sandbox/index.ts';
import { type Receiver, receiver } from '../sandbox/helpers.ts';
import { RAW_HEADER, type RecordingFront, startRecordingFront } from './front.ts';

/**
 * The real client (createServiceClient, as the app composes it) against a sandbox of one profile,
 * through a recording front; a webhook receiver so that deliveries exist; and the sandbox's controls,
 * which go to the sandbox directly so that they are never recorded.
 */
export interface Rig {
  profile: SandboxProfile;
  sandbox: RunningSandbox;
  front: RecordingFront;
  client: ServiceClient;
  hooks: Receiver;
  /** A client with a refused secret, for the token endpoint's 401. */
  refusedClient: ServiceClient;
  /** A request the test sends itself through the front (its answer is checked, its request is not). */
  raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<number>;
  /** `POST /sandbox/<path>` with a JSON body. */
  control(path: string, body: unknown): Promise<void>;
  /** Requests a `delay` fault holds right now (`GET /sandbox/stats`). */
  held(): Promise<number>;
  close(): Promise<void>;
}

export async function startRig(profile: SandboxProfile): Promise<Rig> {
  const sandbox = await startSandbox({ port: 0, profile, reviewDelayMs: 60_000 });
  const front = await startRecordingFront(sandbox.baseUrl);
  const hooks = await receiver(200);
  const clientFor = (clientSecret: string) =>
    createServiceClient({
      baseUrl: front.url,
      clientId: sandbox.clientId,
      clientSecret,
      sleep: async () => {},
      budget: { ratePerSecond: 10_000, burst: 10_000 },
    });
  const client = clientFor(sandbox.clientSecret);
  const refusedClient = clientFor(`${sandbox.clientSecret}-refused`);
  return {
    profile,
    sandbox,
    front,
    client,
    hooks,
    refusedClient,
    async raw(method, path, headers, body) {
      const res = await request(`${front.url}${path}`, {
        method: method as 'GET',
        headers: { ...headers, [RAW_HEADER]: '1' },
        body,
      });
      await res.body.text();
      return res.statusCode;
    },
    async control(path, body) {
      const res = await request(`${sandbox.baseUrl}/sandbox/${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await client.token.get()}`,
          accept: HAL_MEDIA_TYPE,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`/sandbox/${path}: ${res.statusCode} ${text}`);
    },
    async held() {
      const res = await request(`${sandbox.baseUrl}/sandbox/stats`, {
        headers: { authorization: `Bearer ${await client.token.get()}`, accept: HAL_MEDIA_TYPE },
      });
      return ((await res.body.json()) as { heldRequests: number }).heldRequests;
    },
    async close() {
      await client.close();
      await refusedClient.close();
      await front.close();
      await hooks.close();
      await sandbox.close();
    },
  };
}
