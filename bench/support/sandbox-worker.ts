import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { createServiceClient, type ServiceClient } from '#main/data/service/index.ts';
import { startSandbox } from '#sandbox/index.ts';

/**
 * A sandbox on its own thread, as the real service runs elsewhere: a bench then measures what the
 * client side costs its caller, not the server's work on the same thread.
 */
export interface SandboxHandle {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function sandboxInWorker(): Promise<SandboxHandle> {
  const worker = new Worker(new URL(import.meta.url));
  const started = await new Promise<Omit<SandboxHandle, 'close'>>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    ...started,
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      await exited;
    },
  };
}

/** The worker's side: a sandbox that stops when the main thread says so. */
async function serveSandbox(port: NonNullable<typeof parentPort>): Promise<void> {
  const sandbox = await startSandbox();
  port.once('message', async () => {
    await sandbox.close();
    port.close();
  });
  port.postMessage({
    baseUrl: sandbox.baseUrl,
    clientId: sandbox.clientId,
    clientSecret: sandbox.clientSecret,
  });
}

if (!isMainThread && parentPort) await serveSandbox(parentPort);

/**
 * Runs one measurement on a sandbox of its own, warmed up first with the same work: samples do not inherit
 * each other's rows (the service's idempotency keys pile up) or a cold thread.
 */
export async function onFreshSandbox<T>(
  measure: (client: ServiceClient, sandbox: SandboxHandle, token: string) => Promise<T>,
  warmUp: (client: ServiceClient) => Promise<unknown>,
): Promise<T> {
  const sandbox = await sandboxInWorker();
  const client = createServiceClient(sandbox);
  try {
    const token = await client.token.get();
    await warmUp(client);
    return await measure(client, sandbox, token);
  } finally {
    await client.close();
    await sandbox.close();
  }
}
