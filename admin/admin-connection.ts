// The administrator's connection (`--database URL`). The URL may carry the administrator's password: it is
// never printed, and every error leaving here is scrubbed of it. PGPASSWORD or ~/.pgpass (pgpass.ts) also work.
import type pg from 'pg';
import { dedicatedClient } from '#main/team/store/checkout.ts';
import { type ConnectionTarget, scrub, teamConnectionError } from '#main/team/store/connection-error.ts';
import { TeamAdminError } from './errors.ts';
import { pgpassPassword } from './pgpass.ts';

export interface AdminUrl {
  url: string;
  target: ConnectionTarget;
  /** Every form of the password the URL holds, to scrub from messages. */
  secrets: string[];
  /** The URL's sslmode and sslrootcert (the CA file), if it names them. */
  sslmode: string | undefined;
  sslrootcert: string | undefined;
}

export function parseAdminUrl(text: string): AdminUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TeamAdminError('--database must be a URL like postgres://admin@db.example.org:5432/vetted');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new TeamAdminError('--database must be a postgres:// URL.');
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new TeamAdminError('--database must name the database: postgres://…/DATABASE');
  const password = url.password;
  return {
    url: text,
    target: {
      host: url.hostname.replace(/^\[|\]$/g, '') || 'localhost',
      port: url.port ? Number(url.port) : 5432,
      database,
      user: decodeURIComponent(url.username) || process.env.PGUSER || process.env.USER || '',
    },
    secrets: password ? [password, decodeURIComponent(password)] : [],
    sslmode: url.searchParams.get('sslmode') ?? undefined,
    sslrootcert: url.searchParams.get('sslrootcert') ?? undefined,
  };
}

export async function connectAdmin(admin: AdminUrl): Promise<pg.Client> {
  const fromFile = admin.secrets.length || process.env.PGPASSWORD ? undefined : pgpassPassword(admin.target);
  if (fromFile) admin.secrets.push(fromFile);
  // node-postgres lets the URL's fields override its other settings: the password goes into the URL.
  const url = new URL(admin.url);
  if (fromFile) url.password = encodeURIComponent(fromFile);
  // A connection dropped, idle or mid-statement, must end the task in words (the statement's own failure), not
  // crash it.
  const client = dedicatedClient(
    { connectionString: url.toString(), application_name: 'vetted-team-admin' },
    () => undefined,
  );
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw teamConnectionError(error, admin.target, admin.secrets);
  }
  return client;
}

/** Any error of an admin task as words safe to print. */
export function adminErrorText(error: unknown, admin: AdminUrl | undefined): string {
  const text = error instanceof Error ? error.message : String(error);
  return admin ? scrub(text, admin.secrets) : text;
}
