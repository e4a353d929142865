import path from 'node:path';
import type { ConnectionTest, ServiceMode, ServiceStatus } from '#contract/settings.ts';
import type { BudgetOptions } from '#main/data/service/budget.ts';
import { createServiceClient, NotConfiguredError, type ServiceClient } from '#main/data/service/index.ts';
import { CaBundleError, loadCaBundle, type NetworkOptions } from '#main/data/service/network.ts';
import { tokenFormMemory } from '#main/data/service/token-memory.ts';
import type { Settings } from '#main/ground/config/settings-store.ts';
import type { Logger } from '#main/ground/log/logger.ts';
import type { RunningSandbox, SandboxOptions } from '#sandbox/index.ts';
import { statusTracker } from './connection-status.ts';
import { testConnection } from './connection-test.ts';

/**
 * Which service Vetted talks to, and how that is going. With no account configured it starts
 * the built-in sandbox on loopback and connects to it, so a new user sees the whole flow at once.
 */
export interface ServiceConnection {
  readonly mode: ServiceMode;
  /** The client, or a clear error when a custom service is not fully set up. */
  client(): ServiceClient;
  /** The running built-in sandbox, in sandbox mode. */
  readonly sandbox: RunningSandbox | null;
  status(): ServiceStatus;
  test(): Promise<ConnectionTest>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  settings: Settings;
  clientSecret: string | undefined;
  dataDir: string;
  log: Logger;
  onStatus(status: ServiceStatus): void;
  startSandbox(options: SandboxOptions): Promise<RunningSandbox>;
  /** Seals the sandbox's own secrets at rest (its client secret, webhook secrets). */
  sandboxSecrets?: SandboxOptions['secrets'];
  /** The 429 gate's first and longest back-off (defaults 30 s and 5 min); not a user setting. */
  rateLimitBackOff?: Partial<Pick<BudgetOptions, 'firstBackOffMs' | 'maxBackOffMs'>>;
}

/** While offline, how often to ask the service whether it is back. */
const OFFLINE_PROBE_MS = 15_000;

export async function connectService(options: ConnectOptions): Promise<ServiceConnection> {
  const { settings, log } = options;
  if (settings.serviceMode === 'custom') {
    const { baseUrl, clientId } = settings;
    const secret = options.clientSecret;
    if (!baseUrl || !clientId || !secret) return notConfigured(baseUrl ?? null, options.onStatus);
    let extraCa: string[] | undefined;
    try {
      extraCa = settings.caBundlePath ? loadCaBundle(settings.caBundlePath) : undefined;
    } catch (error) {
      if (!(error instanceof CaBundleError)) throw error;
      return notConfigured(baseUrl, options.onStatus, error.message);
    }
    const network = { proxy: true, extraCa };
    return connectTo(
      { baseUrl, clientId, clientSecret: secret, mode: 'custom', sandbox: null, network },
      options,
    );
  }
  const sandbox = await options.startSandbox({
    port: 0,
    data: path.join(options.dataDir, 'sandbox.db'),
    log: (line) => log.info('sandbox', { line }),
    ...(options.sandboxSecrets ? { secrets: options.sandboxSecrets } : {}),
  });
  const { baseUrl, clientId, clientSecret } = sandbox;
  return connectTo({ baseUrl, clientId, clientSecret, mode: 'sandbox', sandbox }, options);
}

interface Target {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  mode: ServiceMode;
  sandbox: RunningSandbox | null;
  /** The built-in sandbox is on loopback: never through a proxy. */
  network?: NetworkOptions;
}

function connectTo(
  target: Target,
  { log, onStatus, settings, dataDir, rateLimitBackOff }: ConnectOptions,
): ServiceConnection {
  log.addSecret(target.clientSecret);
  const tracker = statusTracker(target.mode, target.baseUrl, onStatus);
  // The built-in sandbox has a new port at every start: an account to remember only for a service account.
  const memory = target.mode === 'custom' ? tokenFormMemory(dataDir) : undefined;
  const client = createServiceClient({
    baseUrl: target.baseUrl,
    clientId: target.clientId,
    clientSecret: target.clientSecret,
    tokenEndpoint: settings.tokenEndpoint,
    rememberedTokenForm: memory?.recall(target.baseUrl, target.clientId),
    onTokenFormLearned: (form) => memory?.remember(target.baseUrl, target.clientId, form),
    budget: { ratePerSecond: settings.requestRate, burst: settings.requestBurst, ...rateLimitBackOff },
    network: target.network,
    log: (entry) =>
      log[entry.level](entry.msg, { requestId: entry.requestId, status: entry.status, code: entry.code }),
    onOutcome: tracker.record,
  });
  // The status bar must say online or offline from the start, and notice when the network comes
  // back: a token request answers both (and warms the cache the first real call needs anyway).
  let probeTimer: NodeJS.Timeout | undefined;
  const probe = () => {
    client.token.get().then(
      () => undefined,
      () => {
        if (tracker.current().state === 'offline') probeTimer = setTimeout(probe, OFFLINE_PROBE_MS).unref();
      },
    );
  };
  probe();
  return {
    mode: target.mode,
    sandbox: target.sandbox,
    client: () => client,
    status: tracker.current,
    test: () => testConnection(client, log),
    async close() {
      clearTimeout(probeTimer);
      await client.close();
      await target.sandbox?.close();
    },
  };
}

function notConfigured(
  baseUrl: string | null,
  onStatus: ConnectOptions['onStatus'],
  problem = new NotConfiguredError().message,
): ServiceConnection {
  const status: ServiceStatus = {
    mode: 'custom',
    baseUrl,
    state: 'not-configured',
    lastSuccessAt: null,
    detail: problem,
  };
  onStatus(status);
  return {
    mode: 'custom',
    sandbox: null,
    client() {
      throw new NotConfiguredError();
    },
    status: () => status,
    test: async () => ({ ok: false, reason: 'not-configured', message: problem }),
    close: async () => {},
  };
}
