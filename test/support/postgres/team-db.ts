// A fresh, empty PostgreSQL database per call, in the run's throwaway cluster (pg-global-setup.ts).
import crypto from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrateTeamStore } from '#main/team/store/migrations/index.ts';

/** The cluster's superuser URL for the `postgres` database. */
export function pgAdminUrl(): string {
  return inject('pgAdminUrl');
}

/** Creates an empty database and returns its superuser URL (the test's administrator). */
export async function freshDatabase(prefix = 'vetted'): Promise<string> {
  const name = `${prefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: pgAdminUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database with the team store's schema (migrated as its administrator); returns its superuser URL. */
export async function migratedDatabase(prefix?: string): Promise<string> {
  const url = await freshDatabase(prefix);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await migrateTeamStore(admin);
  } finally {
    await admin.end();
  }
  return url;
}
