// The team store's schema as an ordered list of migrations, one file each, like the local journal's:
// append-only (a released migration is never edited, a change is the next number). runner.ts applies them.
import type pg from 'pg';
import type { Queryable } from '../sql.ts';
import { TEAM_TABLES } from './01-tables.ts';
import { LOGIN_STAMPS } from './02-login-stamps.ts';
import { REJECTIONS_PRUNED } from './03-rejections-pruned.ts';
import { OUTBOX_AUDITED } from './04-outbox-audited.ts';
import { WEBHOOK_SECRETS } from './05-webhook-secrets.ts';
import { AUDIT_CHAIN } from './06-audit-chain.ts';
import { CLAIMS_ROLES } from './07-claims-roles.ts';
import { FOUR_EYES } from './08-four-eyes.ts';
import { TEAM_KEYS } from './09-team-keys.ts';
import { HISTORY_IMPORT } from './10-history-import.ts';
import { CHANGE_FEED } from './11-change-feed.ts';
import { AUDIT_KEYS } from './12-audit-keys.ts';
import { LOCK_MAXIMUM } from './13-lock-maximum.ts';
import { HUBS } from './14-hubs.ts';
import { WAITING_INDEX } from './15-waiting-index.ts';
import {
  applyTeamMigrations,
  requireTeamSchema,
  type TeamMigration,
  type TeamMigrationContext,
} from './runner.ts';

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  TEAM_TABLES,
  LOGIN_STAMPS,
  REJECTIONS_PRUNED,
  OUTBOX_AUDITED,
  WEBHOOK_SECRETS,
  AUDIT_CHAIN,
  CLAIMS_ROLES,
  FOUR_EYES,
  TEAM_KEYS,
  HISTORY_IMPORT,
  CHANGE_FEED,
  AUDIT_KEYS,
  LOCK_MAXIMUM,
  HUBS,
  WAITING_INDEX,
];

/** The schema from which the store's audit log is a hash chain (the administrator's `verify-audit` needs it). */
export const AUDIT_CHAINED_FROM_SCHEMA = AUDIT_CHAIN.version;

/** The last migration's number. */
export const TEAM_LATEST_VERSION = TEAM_MIGRATIONS.at(-1)?.version ?? 0;

/** Brings the store to this Vetted's schema (the administrator's `init` and `migrate`). */
export const migrateTeamStore = (client: pg.ClientBase, context?: TeamMigrationContext) =>
  applyTeamMigrations(client, TEAM_MIGRATIONS, context);

/** For desks and hubs: the store must be at exactly this Vetted's schema. */
export const checkTeamSchema = (db: Queryable) => requireTeamSchema(db, TEAM_LATEST_VERSION);
