// A fresh, empty PostgreSQL database per call, in the run's throwaway cluster (pg-global-setup.ts).
import crypto from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

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
