// A team's webhook subscription secrets in the team store (vetted.webhook_secrets), sealed with the team's data
// key on the hub: whichever hub holds the listener role verifies deliveries signed with a secret another hub
// chose, and the service's redeliveries of what a dead hub never acknowledged are accepted, not refused.
import { z } from 'zod';
import type { FieldSealer } from '../data/journal/personal.ts';
import type { SubscriptionSecrets } from '../features/webhooks/subscription-secrets.ts';
import { DecryptError } from '../ground/crypto.ts';
import { describeError, type Logger } from '../ground/log/logger.ts';
import { parseRows } from './journal/rows.ts';
import type { Queryable } from './store/sql.ts';

const RowSchema = z.object({ subscription_id: z.string().min(1), secret: z.string().min(1) });

/** The AAD binds a sealed secret to its subscription: a token copied onto another row does not open. */
export const subscriptionSecretAad = (subscriptionId: string) =>
  `team:webhook_secrets/${subscriptionId}/secret`;

export function teamSubscriptionSecrets(options: {
  db: Queryable;
  /** The team's data keys (keys/key-ring.ts). */
  fields: FieldSealer;
  log: Pick<Logger, 'warn' | 'addSecret'>;
}): SubscriptionSecrets {
  const { db, fields, log } = options;
  let known = new Map<string, string>();
  return {
    async load() {
      const { rows } = await db.query('SELECT subscription_id, secret FROM vetted.webhook_secrets');
      const opened = new Map<string, string>();
      for (const row of parseRows(RowSchema, 'webhook_secrets', rows)) {
        try {
          const secret = fields.open(subscriptionSecretAad(row.subscription_id), row.secret);
          log.addSecret(secret);
          opened.set(row.subscription_id, secret);
        } catch (error) {
          if (!(error instanceof DecryptError)) throw error;
          // Not sealed with this team's key for this subscription (altered, or copied): its deliveries stay
          // unverified, and the rest are not held up by it.
          log.warn('team store: a webhook secret does not open with the team key', {
            subscriptionId: row.subscription_id,
            ...describeError(error),
          });
        }
      }
      known = opened;
    },
    has: (id) => known.has(id),
    all: () => [...known.values()],
    async keep(id, secret) {
      await db.query(
        `INSERT INTO vetted.webhook_secrets (subscription_id, secret) VALUES ($1, $2)
         ON CONFLICT (subscription_id) DO NOTHING`,
        [id, fields.seal(subscriptionSecretAad(id), secret)],
      );
      known.set(id, secret);
    },
    async forget(id) {
      await db.query('DELETE FROM vetted.webhook_secrets WHERE subscription_id = $1', [id]);
      known.delete(id);
    },
  };
}
