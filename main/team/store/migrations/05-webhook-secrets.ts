// Team store migration 5: the secrets of the team's webhook subscriptions, sealed on the hub with the team data
// key. The service never shows a subscription's secret again, so a hub that takes the listener role over must
// find the secret of the subscription another hub made here: else it refuses every delivery (and every
// redelivery of what was not acknowledged) as unsigned, and subscribes a second time.
import type { TeamMigration } from './runner.ts';

const TEAM_SCHEMA_V5_WEBHOOK_SECRETS = `
CREATE TABLE vetted.webhook_secrets (
  subscription_id text PRIMARY KEY,
  -- An encryptField token (team data key; its AAD names the subscription): PostgreSQL never holds the secret.
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The hub's login that subscribed, stamped by the database.
  created_by text NOT NULL DEFAULT session_user
);
CREATE TRIGGER webhook_secrets_stamp BEFORE INSERT ON vetted.webhook_secrets
  FOR EACH ROW EXECUTE FUNCTION vetted.stamp_login('created_by');
`;

export const WEBHOOK_SECRETS: TeamMigration = {
  version: 5,
  name: "the webhook subscriptions' secrets, sealed, for every hub",
  sql: TEAM_SCHEMA_V5_WEBHOOK_SECRETS,
};
