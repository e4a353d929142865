// The journal's schema, as an ordered list of migrations, one file each. Migrations are append-only: a
// released migration is never edited, a change is a new one (the next number). runner.ts applies them.
import { CUSTOMERS_HISTORY_AUDIT } from './01-customers-history-audit.ts';
import { DRAFTS_OUTBOX_EVENTS_RETRIES } from './02-drafts-outbox-events-retries.ts';
import { EVENT_LOG_SECURITY_LOG } from './03-event-log-security-log.ts';
import { OUTBOX_DELIVERY } from './04-outbox-delivery.ts';
import { NOTES_IMAGES_ACTORS } from './05-notes-images-actors.ts';
import { REAL_SERVICE_CUSTOMERS } from './06-real-service-customers.ts';
import { QUEUE_ORDERS } from './07-queue-orders.ts';
import { TEAM_REPLICA } from './08-team-replica.ts';
import { AUDIT_CHAIN } from './09-audit-chain.ts';
import { TEAM_CLAIMS } from './10-team-claims.ts';
import type { Migration } from './runner.ts';

export const MIGRATIONS: readonly Migration[] = [
  CUSTOMERS_HISTORY_AUDIT,
  DRAFTS_OUTBOX_EVENTS_RETRIES,
  EVENT_LOG_SECURITY_LOG,
  OUTBOX_DELIVERY,
  NOTES_IMAGES_ACTORS,
  REAL_SERVICE_CUSTOMERS,
  QUEUE_ORDERS,
  TEAM_REPLICA,
  AUDIT_CHAIN,
  TEAM_CLAIMS,
];

export const LATEST_VERSION = MIGRATIONS.length;
