// The hub's one-shot commands: join (or leave) a team, set the service it works against, show its status.
// Joining goes through the desk's own membership code, so a hub checks a join code exactly as a desk does
// (the code, the password, the schema, the team key) and a refusal keeps nothing.
import { DeskError } from '#contract/errors.ts';
import { SettingsError } from '#main/ground/config/settings-store.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { createMembership } from '../membership.ts';
import { type HubConfig, HubError } from './hub-config.ts';

const JOIN_TIMEOUT_MS = 15_000;

function membershipOf(config: HubConfig, log: Pick<Logger, 'addSecret' | 'error'>) {
  return createMembership({
    vault: config.vault,
    settings: config.settings,
    startedOn: config.settings.get().team?.teamId ?? null,
    joinTimeoutMs: JOIN_TIMEOUT_MS,
    onSecret: (secret) => log.addSecret(secret),
    onUnexpected: (failure) => log.error('hub: unexpected team store failure', describeError(failure.cause)),
  });
}

/** `join`: the code and the password, each a line of standard input. Answers what to print. */
export async function joinCommand(
  config: HubConfig,
  input: { code: string | undefined; password: string | undefined },
  log: Pick<Logger, 'info' | 'error' | 'addSecret'>,
): Promise<string> {
  if (!input.code?.trim() || !input.password) {
    throw new HubError(
      'Give the join code on the first line of standard input and the database password on the second.',
    );
  }
  const status = await refusalsInWords(() =>
    membershipOf(config, log).join(input.code ?? '', input.password ?? ''),
  );
  const team = status.team;
  log.info('hub joined a team', { teamId: team?.teamId });
  return team
    ? `hub: joined team ${team.teamId} as ${team.reviewer} on ${team.host}:${team.port}/${team.database}`
    : 'hub: joined';
}

export async function leaveCommand(
  config: HubConfig,
  log: Pick<Logger, 'addSecret' | 'error'>,
): Promise<string> {
  await membershipOf(config, log).leave();
  return 'hub: left the team (its key and database password are no longer in the hub’s vault)';
}

export type ServiceChoice = { sandbox: true } | { sandbox: false; baseUrl: string; clientId: string };

/** `service`: the built-in sandbox, or a real service with the client secret from standard input. */
export function serviceCommand(config: HubConfig, choice: ServiceChoice, clientSecret?: string): string {
  if (choice.sandbox) {
    config.settings.update({ serviceMode: 'sandbox' });
    return 'hub: works against the built-in sandbox';
  }
  if (!clientSecret) throw new HubError('Give the client secret on standard input (one line).');
  try {
    config.settings.update({ serviceMode: 'custom', baseUrl: choice.baseUrl, clientId: choice.clientId });
  } catch (error) {
    if (error instanceof SettingsError) throw new HubError(error.message);
    throw error;
  }
  config.vault.set('clientSecret', clientSecret);
  return `hub: works against ${choice.baseUrl} as client ${choice.clientId} (client secret kept in the hub's vault)`;
}

/** `status`: the team joined and whether the store answers, who holds the listener role, the service. */
export async function statusCommand(
  config: HubConfig,
  log: Pick<Logger, 'addSecret' | 'error'>,
): Promise<string[]> {
  const status = await membershipOf(config, log).status();
  const lines = [`hub data: ${config.dataDir}`];
  if (!status.team) {
    lines.push('team: not joined (run `npm run hub -- join`)');
  } else {
    const { teamId, reviewer, host, port, database, sslmode } = status.team;
    const tls = sslmode === 'verify-full' ? 'TLS, verified' : 'no TLS';
    lines.push(`team: joined ${teamId} as ${reviewer} on ${host}:${port}/${database} (${tls})`);
    lines.push(`store: ${status.store}${status.problem ? ` — ${status.problem}` : ''}`);
    lines.push(`listener role: ${HUB_WORDS[status.hub]}`);
  }
  lines.push(`service: ${serviceWords(config)}`);
  return lines;
}

const HUB_WORDS = {
  listening: 'held by a hub (leading)',
  'no hub': 'free — no hub is listening',
  unknown: 'unknown (the store did not say)',
} as const;

function serviceWords(config: HubConfig): string {
  const settings = config.settings.get();
  if (settings.serviceMode === 'sandbox') return 'the built-in sandbox';
  if (settings.baseUrl && settings.clientId && config.vault.has('clientSecret')) {
    return `${settings.baseUrl} as client ${settings.clientId}`;
  }
  return 'not configured (run `npm run hub -- service --base-url URL --client-id ID`)';
}

async function refusalsInWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DeskError) throw new HubError(error.message);
    throw error;
  }
}
