import { DeskError } from '#contract/errors.ts';
import { type SandboxFault, type SandboxPanel, SandboxPanelSchema } from '#contract/sandbox-panel.ts';
import type { RunningSandbox } from '#sandbox/index.ts';
import type { DeskContext, Feature } from '../feature.ts';

type SandboxChannel = 'sandbox.panel' | 'sandbox.finishReviews' | 'sandbox.setFault';

/**
 * Past the built-in sandbox's review delay (60 s by default): its pending reviews fall due, and their
 * webhooks go, at once. Well short of its tokens' hour, so Vetted's token stays valid on its clock.
 */
export const FINISH_REVIEWS_SECONDS = 5 * 60;

export const NOT_SANDBOX =
  'The Sandbox panel works only on the built-in sandbox; Vetted is connected to your service.';

/**
 * The Sandbox panel's main side: the controls of the running built-in sandbox (its clock, its faults)
 * and how to reach it with curl. Refused, with a typed error, whenever Vetted is on another service.
 */
export function sandboxPanelFeature(context: DeskContext): Feature<SandboxChannel> {
  const running = (): RunningSandbox => {
    const sandbox = context.connection().sandbox;
    if (!sandbox) throw new DeskError('NotSandbox', NOT_SANDBOX);
    return sandbox;
  };

  /** The sandbox's own `/sandbox/*` routes, with Vetted's token: what the README's curl commands call too. */
  const control = async (sandbox: RunningSandbox, path: string, body?: unknown): Promise<unknown> => {
    const token = await context.connection().client().token.get();
    const res = await fetch(`${sandbox.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new DeskError('SandboxRefused', `The sandbox refused this (${res.status}).`);
    return res.json();
  };

  const panel = async (): Promise<SandboxPanel> => {
    const sandbox = running();
    const [clock, faults] = (await Promise.all([
      control(sandbox, '/sandbox/clock'),
      control(sandbox, '/sandbox/faults'),
    ])) as [{ now: string }, { rate: number; kinds: string[] }];
    const kind = faults.rate > 0 && faults.kinds.length === 1 ? faults.kinds[0] : null;
    return SandboxPanelSchema.parse({
      baseUrl: sandbox.baseUrl,
      clientId: sandbox.clientId,
      curl: curlFor(sandbox),
      now: clock.now,
      fault: kind ? { kind, rate: faults.rate } : null,
    });
  };

  return {
    handlers: {
      'sandbox.panel': panel,
      async 'sandbox.finishReviews'() {
        await running().advanceClock(FINISH_REVIEWS_SECONDS);
        return panel();
      },
      async 'sandbox.setFault'({ kind, rate }) {
        const sandbox = running();
        await control(sandbox, '/sandbox/faults', kind ? faultConfig(kind, rate) : { rate: 0 });
        return panel();
      },
    },
  };
}

function faultConfig(kind: SandboxFault, rate: number) {
  // Only the service's own API: the token endpoint stays reliable, so a fault reads as the API's.
  return {
    rate,
    kinds: [kind],
    paths: ['/customers*', '/documents*', '/events*', '/webhook-subscriptions*'],
  };
}

/**
 * A command that gets a token and lists the customers, with the sandbox's client secret in it. Safe to
 * show, unlike a real service's secret (which never leaves main): the built-in sandbox is a fake bound
 * to 127.0.0.1 holding no real customer, its credentials were generated for this data directory and
 * reach that fake alone, which the reviewer already drives in full through Vetted. On a real service
 * this channel answers nothing but a refusal, so no real secret can take this path.
 */
function curlFor(sandbox: RunningSandbox): string {
  const { baseUrl, clientId, clientSecret } = sandbox;
  // HTTP Basic for the credentials: every profile of the sandbox takes them so (the real one only so).
  return [
    `TOKEN=$(curl -s -u '${clientId}:${clientSecret}' -d grant_type=client_credentials ${tokenUrlOf(sandbox)} \\`,
    `  | sed -E 's/.*"access_token":"([^"]+)".*/\\1/')`,
    `curl -s -H "Authorization: Bearer $TOKEN" -H "Accept: application/vnd.service.v1.hal+json" ${baseUrl}/customers`,
  ].join('\n');
}

/** Where the sandbox issues tokens: its own word where it gives one (its profiles differ), else the interface's path. */
function tokenUrlOf(sandbox: RunningSandbox & { tokenUrl?: string }): string {
  return sandbox.tokenUrl ?? `${sandbox.baseUrl}/oauth/v2/token`;
}
