import { request } from 'undici';
import { afterEach } from 'vitest';
import {
  type CustomerInput,
  createServiceClient,
  type LogEntry,
  type ServiceClient,
  type ServiceClientOptions,
} from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';
import { samplePerson } from '#test/support/person.ts';

/** The service client against a real sandbox: what the client.sandbox.*.test.ts files share. */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Both behaviour profiles of the sandbox: the interface document's, and today's real service's. */
export const PROFILES = ['interface', 'real'] as const;
export type Profile = (typeof PROFILES)[number];

/** How each profile spells the error codes that differ (the others are the same on both). */
export const CODES = {
  interface: {
    notFound: { status: 404, code: 'NotFound' },
    invalidFileType: 'InvalidFileType',
    fileTooLarge: 'FileTooLarge',
    tooManyDocuments: 'MaxNumberOfResources',
  },
  real: {
    notFound: { status: 403, code: 'notFound' },
    invalidFileType: 'invalidFileType',
    fileTooLarge: 'fileTooLarge',
    tooManyDocuments: 'maximumNumberOfResources',
  },
} as const;

interface Stats {
  tokensIssued: number;
  requests: Record<string, Record<string, number>>;
  /** Requests a `delay` fault is holding right now. */
  heldRequests: number;
}

/** One sandbox and one client per test, with instant recorded back-off and every line logged. */
export interface Setup {
  sandbox: Sandbox;
  client: ServiceClient;
  logs: LogEntry[];
  sandboxLines: string[];
  sleeps: number[];
  /** Moves the sandbox's clock and the client's together. */
  advance(seconds: number): Promise<void>;
  stats(): Promise<Stats>;
  /** All answers to one route (`GET /customers/{id}`), by status or `reset`. */
  outcomes(route: string): Promise<Record<string, number>>;
  control(path: string, body: unknown): Promise<void>;
}

const open: Setup[] = [];
afterEach(async () => {
  for (const setup of open.splice(0)) {
    await setup.client.close();
    await setup.sandbox.close();
  }
});

export async function setUp(
  sandboxOptions: Parameters<typeof startSandbox>[0] = {},
  clientOptions: Partial<ServiceClientOptions> = {},
): Promise<Setup> {
  const sandboxLines: string[] = [];
  const sandbox = await startSandbox({ log: (line) => sandboxLines.push(line), ...sandboxOptions });
  const logs: LogEntry[] = [];
  const sleeps: number[] = [];
  let offsetMs = 0;
  const client = createServiceClient({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
    log: (entry) => logs.push(entry),
    now: () => Date.now() + offsetMs,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    // These tests are about the client's calls, not its pace (the budget has its own tests).
    budget: { ratePerSecond: 10_000, burst: 10_000 },
    ...clientOptions,
  });
  // Controls go around the client, so that they never count among its requests or retries.
  async function sandboxCall(method: 'GET' | 'POST', path: string, body?: unknown) {
    const token = await client.token.get();
    const res = await request(`${sandbox.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text);
  }
  const setup: Setup = {
    sandbox,
    client,
    logs,
    sandboxLines,
    sleeps,
    advance: async (seconds) => {
      offsetMs += seconds * 1000;
      await sandbox.advanceClock(seconds);
    },
    stats: () => sandboxCall('GET', '/sandbox/stats'),
    outcomes: async (route) => (await setup.stats()).requests[route] ?? {},
    control: async (path, body) => {
      await sandboxCall('POST', path, body);
    },
  };
  open.push(setup);
  return setup;
}

/** `setUp` with the sandbox in one profile: what a `describe.each(PROFILES)` block sets up with. */
export function setUpOn(profile: Profile): typeof setUp {
  return (sandboxOptions = {}, clientOptions = {}) => setUp({ ...sandboxOptions, profile }, clientOptions);
}

let serial = 0;
export function person(firstName = 'Jane'): CustomerInput {
  serial++;
  return samplePerson(firstName, 'Doe', `jane.doe.${serial}.${Date.now()}@example.com`, {
    ipAddress: '203.0.113.7',
  });
}
