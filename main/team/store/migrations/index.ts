// The team store's schema as an ordered list of migrations, one file each, like the local journal's:
// append-only (a released migration is never edited, a change is the next number). runner.ts applies them.
import type pg from 'pg';
import type { Queryable } from '../sql.ts';
import { TEAM_TABLES } from './01-tables.ts';
import { LOGIN_STAMPS } from './02-login-stamps.ts';
import { CLAIMS_ROLES } from './05-claims-roles.ts';
import { applyTeamMigrations, requireTeamSchema, type TeamMigration } from './runner.ts';

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [TEAM_TABLES, LOGIN_STAMPS, CLAIMS_ROLES];

export const TEAM_LATEST_VERSION = TEAM_MIGRATIONS.length;

/** Brings the store to this Vetted's schema (the administrator's `init` and `migrate`). */
export const migrateTeamStore = (client: pg.ClientBase) => applyTeamMigrations(client, TEAM_MIGRATIONS);

/** For desks and hubs: the store must be at exactly this Vetted's schema. */
export const checkTeamSchema = (db: Queryable) => requireTeamSchema(db, TEAM_LATEST_VERSION);
