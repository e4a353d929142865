import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isServiceId } from '#contract/service-id.ts';
import {
  moveVaultSecrets,
  type SubscriptionSecrets,
  secretNameOf,
  subscriptionIdOf,
  vaultSubscriptionSecrets,
} from '#main/features/webhooks/subscription-secrets.ts';
import { isSecretName, openFileKeyVault } from '#main/ground/vault/vault.ts';
import { removeDir } from '#test/support/desk/desk-harness.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-secret-names-'));
afterAll(() => removeDir(dir));

/** Any id the service's description allows that Vetted can use: printable text, bounded. */
const serviceId = fc.string({ unit: 'binary', minLength: 1, maxLength: 255 }).filter(isServiceId);

describe('the vault’s name for a webhook secret', () => {
  it('holds any subscription id Vetted can use, and gives it back', () => {
    fc.assert(
      fc.property(serviceId, (id) => {
        const name = secretNameOf(id);
        expect(isSecretName(name)).toBe(true);
        expect(subscriptionIdOf(name)).toBe(id);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the old name for an id the old names could hold', () => {
    const id = randomUUID();
    expect(secretNameOf(id)).toBe(`webhookSecret:${id}`);
    expect(secretNameOf('sub:42.a_b-c')).toBe('webhookSecret:sub:42.a_b-c');
    expect(secretNameOf('sub 42')).toMatch(/^webhookSecret:~/);
  });

  it('finds every secret of a vault written under the old names, and keeps odd ids beside them', async () => {
    const old = randomUUID();
    const before = openFileKeyVault({ dir });
    // As Vetted wrote it before: the subscription id as it is in the name.
    before.set(`webhookSecret:${old}`, 'whsec-old-one');
    const vault = openFileKeyVault({ dir });
    const secrets = vaultSubscriptionSecrets(vault);
    expect(secrets.has(old)).toBe(true);
    const odd = 'Sub / ü ?#% 😀';
    await secrets.keep(odd, 'whsec-odd-one');
    const reopened = vaultSubscriptionSecrets(openFileKeyVault({ dir }));
    expect(reopened.has(old) && reopened.has(odd)).toBe(true);
    expect(reopened.all().sort()).toEqual(['whsec-odd-one', 'whsec-old-one']);
    await reopened.forget(odd);
    expect(vaultSubscriptionSecrets(openFileKeyVault({ dir })).has(odd)).toBe(false);
  });

  it('moves odd ids’ secrets to a hub’s store under their ids', async () => {
    const vault = openFileKeyVault({ dir: mkdtempSync(path.join(dir, 'move-')) });
    await vaultSubscriptionSecrets(vault).keep('a b', 'whsec-a');
    await vaultSubscriptionSecrets(vault).keep('plain-1', 'whsec-b');
    const kept = new Map<string, string>();
    const target = { keep: async (id: string, secret: string) => void kept.set(id, secret) };
    await moveVaultSecrets(vault, target as unknown as SubscriptionSecrets);
    expect(Object.fromEntries(kept)).toEqual({ 'a b': 'whsec-a', 'plain-1': 'whsec-b' });
  });
});
