import { randomBytes } from 'node:crypto';
import type { TunnelCheck } from '#contract/webhooks.ts';
import { TUNNEL_CHECK_HEADER, WEBHOOK_PATH } from './listener.ts';

/**
 * "Check" for the tunnel: a request through the public URL, carrying a one-time nonce that the
 * listener recognises. Whether it arrived (and on which path) tells a working tunnel from one that
 * forwards elsewhere, or one that is not running.
 */
export interface ProbeRegistry {
  /** Called by the listener: true (and noted) when the nonce is one we are waiting for. */
  arrived(nonce: string, path: string): boolean;
  expect(nonce: string): void;
  /** The path the probe arrived on, if it did; forgets the nonce. */
  take(nonce: string): string | null;
}

export function createProbeRegistry(): ProbeRegistry {
  const waiting = new Map<string, string | null>();
  return {
    arrived(nonce, path) {
      if (!waiting.has(nonce) || waiting.get(nonce) !== null) return false;
      waiting.set(nonce, path);
      return true;
    },
    expect(nonce) {
      waiting.set(nonce, null);
    },
    take(nonce) {
      const path = waiting.get(nonce) ?? null;
      waiting.delete(nonce);
      return path;
    },
  };
}

export interface TunnelCheckInput {
  publicUrl: string | null;
  listenerUrl: string | null;
  probes: ProbeRegistry;
  /** Whether a subscription of ours delivers to the public URL; null when unknown. */
  subscribed: boolean | null;
  timeoutMs?: number;
  inSandbox: boolean;
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/i;

export async function checkTunnel(input: TunnelCheckInput): Promise<TunnelCheck> {
  const { publicUrl, listenerUrl, subscribed } = input;
  const fail = (reason: NonNullable<TunnelCheck['reason']>, message: string): TunnelCheck => ({
    ok: false,
    reason,
    message,
    subscribed,
  });
  if (!publicUrl) {
    return fail(
      'not-set',
      input.inSandbox
        ? 'No public URL is set. The built-in sandbox delivers straight to the listener; a tunnel is needed only for a real service.'
        : 'No public URL is set: enter the https URL of your tunnel (cloudflared, ngrok, a reverse proxy) in Settings.',
    );
  }
  if (!listenerUrl)
    return fail('listener-down', 'Vetted’s listener is not running, so nothing can reach it.');
  const nonce = randomBytes(24).toString('base64url');
  input.probes.expect(nonce);
  let status: number;
  try {
    const response = await fetch(publicUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { [TUNNEL_CHECK_HEADER]: nonce, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(input.timeoutMs ?? 10_000),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    input.probes.take(nonce);
    return failureOf(error, publicUrl, fail);
  }
  const arrivedOn = input.probes.take(nonce);
  if (arrivedOn === null) {
    return fail(
      'elsewhere',
      `${publicUrl} answered (HTTP ${status}) but the request never reached Vetted: make the tunnel forward to ${listenerUrl}.`,
    );
  }
  if (arrivedOn !== WEBHOOK_PATH) {
    return fail(
      'wrong-path',
      `The tunnel reaches Vetted, but on the path ${arrivedOn} instead of ${WEBHOOK_PATH}: end the public URL with ${WEBHOOK_PATH}, or forward it there.`,
    );
  }
  const note =
    subscribed === false
      ? ' No subscription of Vetted delivers to it yet: subscribe it on the Webhooks screen.'
      : '';
  return {
    ok: true,
    reason: null,
    message: `Requests to ${publicUrl} reach Vetted’s listener.${note}`,
    subscribed,
  };
}

function failureOf(
  error: unknown,
  publicUrl: string,
  fail: (reason: NonNullable<TunnelCheck['reason']>, message: string) => TunnelCheck,
): TunnelCheck {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return fail('timeout', `${publicUrl} did not answer in time: is the tunnel running?`);
  }
  const code = String((error as { cause?: { code?: unknown } } | undefined)?.cause?.code ?? '');
  if (TLS_CODES.test(code)) {
    return fail(
      'tls',
      `A secure connection to ${publicUrl} could not be made (${code}): check its certificate.`,
    );
  }
  return fail(
    'unreachable',
    `${publicUrl} could not be reached${code ? ` (${code})` : ''}: is the tunnel running, and is the URL right?`,
  );
}
