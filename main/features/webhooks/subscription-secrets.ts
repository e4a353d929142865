// Where the secrets of the application's webhook subscriptions are kept. The service never shows a
// subscription's secret again, so whoever must verify its deliveries needs it from here: a desk keeps its own
// in its vault; a team's hubs keep theirs in the team store, so whichever hub takes the listener role over
// verifies what another hub subscribed (main/team/subscription-secrets.ts).
import { isServiceId } from '#contract/service-id.ts';
import type { SecretName, Vault } from '#main/ground/vault/vault.ts';

export interface SubscriptionSecrets {
  /** Reads what is kept elsewhere into memory: before the listener starts (every delivery reads them). */
  load(): Promise<void>;
  has(subscriptionId: string): boolean;
  /** Every secret kept, for verifying a delivery. */
  all(): string[];
  keep(subscriptionId: string, secret: string): Promise<void>;
  forget(subscriptionId: string): Promise<void>;
}

const PREFIX = 'webhookSecret:';
/** The names every vault has used since the first version: an id of this alphabet is its own name. */
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,200}$/;
const ENCODED = '~';

/**
 * A subscription id is opaque (any printable text the service gives): one the vault's first names could hold
 * keeps that name, so secrets kept before stay found; any other goes base64url-encoded behind `~`.
 */
export function secretNameOf(id: string): SecretName {
  if (PLAIN_ID.test(id)) return `${PREFIX}${id}`;
  return `${PREFIX}${ENCODED}${Buffer.from(id, 'utf8').toString('base64url')}`;
}

/** The subscription id a secret's name holds. */
export function subscriptionIdOf(name: string): string {
  const rest = name.slice(PREFIX.length);
  return rest.startsWith(ENCODED) ? Buffer.from(rest.slice(1), 'base64url').toString('utf8') : rest;
}

const nameOf = secretNameOf;

type SecretVault = Pick<Vault, 'names' | 'get' | 'has' | 'set' | 'delete'>;

/** Each in the vault as `webhookSecret:<subscription id>` (`secretNameOf`). */
export function vaultSubscriptionSecrets(vault: SecretVault): SubscriptionSecrets {
  return {
    load: async () => undefined,
    // An id no channel could use was never kept (the service may still list one).
    has: (id) => isServiceId(id) && vault.has(nameOf(id)),
    all: () =>
      vault
        .names()
        .filter((name) => name.startsWith(PREFIX))
        .map((name) => vault.get(name))
        .filter((secret) => secret !== undefined),
    keep: async (id, secret) => vault.set(nameOf(id), secret),
    forget: async (id) => vault.delete(nameOf(id)),
  };
}

/** Moves the secrets a vault holds into `target` (a hub that kept them in its own vault before). */
export async function moveVaultSecrets(vault: SecretVault, target: SubscriptionSecrets): Promise<number> {
  let moved = 0;
  for (const name of vault.names().filter((one) => one.startsWith(PREFIX))) {
    const secret = vault.get(name);
    if (secret !== undefined) await target.keep(subscriptionIdOf(name), secret);
    vault.delete(name);
    moved += 1;
  }
  return moved;
}
