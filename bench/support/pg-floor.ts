/**
 * The least a listener durable in PostgreSQL must do, in a process of its own as the hub is (bench/team-ingest.ts
 * samples it in the same turns as the real hub): the signature checked over the raw bytes, the body parsed for
 * its id, then ONE `INSERT … ON CONFLICT` per group on one connection, committed (a single statement is its own
 * transaction: one round trip, one WAL flush), then 200 to every delivery of the group. The group forms while the
 * last one commits. Nothing else: no columns parsed out, no change numbers, no processing, no reconcile.
 * Run by the bench: `node bench/support/pg-floor.ts '{"connectionString":…,"secret":…}'`; prints its URL as one
 * line, stops on SIGTERM.
 */
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { listenOnLoopback, signedDeliveries } from './durable-floor.ts';

export interface PgFloorJob {
  connectionString: string;
  secret: string;
}

const job = JSON.parse(process.argv[2] ?? '{}') as PgFloorJob;
const db = new pg.Client({ connectionString: job.connectionString });
await db.connect();
await db.query('CREATE TABLE IF NOT EXISTS floor_events (id text PRIMARY KEY, body text NOT NULL)');

let group: Array<{ id: string; body: string; res: ServerResponse }> = [];
let committing = false;

const commit = async () => {
  if (committing || group.length === 0) return;
  committing = true;
  const items = group;
  group = [];
  let status = 200;
  try {
    await db.query(
      `INSERT INTO floor_events (id, body) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (id) DO NOTHING`,
      [items.map((item) => item.id), items.map((item) => item.body)],
    );
  } catch {
    status = 500;
  }
  for (const { res } of items) res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
  committing = false;
  setImmediate(commit);
};

const server = signedDeliveries(job.secret, (body, res, id) => {
  group.push({ id, body: body.toString(), res });
  if (!committing) setImmediate(commit);
});
const listening = await listenOnLoopback(server, () => void db.end());
process.stdout.write(`${listening.url}\n`);
process.once('SIGTERM', () => void listening.close().then(() => process.exit(0)));
