// A row the outbox created whose customer never reached the team store: its drainer recorded the outcome and
// then died, or could not read the customer back, before writing it (two steps, since the customer comes from
// the service after the commit). Without this the customer would reach the desks only through the hub's
// webhook, and never while no hub runs. Every drainer looks for such rows when it starts, every
// REPAIR_EVERY_MS, and as soon as it sees another drainer gone (liveness.ts), and writes each customer as its
// drainer would have; two drainers doing it at once write the same customer twice, which the upsert absorbs.
import type pg from 'pg';
import type { CustomerForm } from '#contract/drafts.ts';
import type { PersonalCipher } from '#main/data/journal/personal.ts';
import type { Customer, ServiceClient } from '#main/data/service/index.ts';
import { describeError, type Logger } from '#main/ground/log/logger.ts';
import { holderIsGone } from './liveness.ts';
import { openForm, parseRows, ROW_COLUMNS, type TeamOutboxRow } from './rows.ts';

/** A crash between the two steps is rare: a look every ten minutes costs one anti-join and finds it soon. */
export const REPAIR_EVERY_MS = 10 * 60_000;
/** Rows repaired per look; more wait for the next. */
const REPAIR_BATCH = 100;
/**
 * How long the drainer that recorded a row has to write its customer before another does it, while it is
 * alive: a live drainer does it within a GET, and leaving it that long keeps the repair from doing, at the
 * same moment, what the live drainer is doing. One that is gone (liveness.ts) is not waited for.
 */
export const REPAIR_GRACE_SECONDS = 60;

export async function createdWithoutCustomer(
  db: Pick<pg.Pool, 'query'>,
  limit: number,
): Promise<TeamOutboxRow[]> {
  const { rows } = await db.query(
    `SELECT ${ROW_COLUMNS} FROM vetted.team_outbox o
      WHERE o.state = 'created' AND o.customer_id IS NOT NULL
        AND (o.finished_at < now() - make_interval(secs => ${REPAIR_GRACE_SECONDS})
             OR ${holderIsGone('o.recorded_by')})
        AND NOT EXISTS (SELECT 1 FROM vetted.customers c WHERE c.id = o.customer_id)
      ORDER BY o.finished_at, o.draft_id
      LIMIT $1`,
    [limit],
  );
  return parseRows(rows);
}

export interface RepairContext {
  pool: pg.Pool;
  cipher: PersonalCipher;
  client(): ServiceClient;
  log: Logger;
  onCreated(customer: Customer, row: TeamOutboxRow, form: CustomerForm | undefined): void | Promise<void>;
}

/** Writes the customer of every row created without one; answers how many it wrote. Never throws. */
export async function repairCreated(ctx: RepairContext): Promise<number> {
  let rows: TeamOutboxRow[];
  try {
    rows = await createdWithoutCustomer(ctx.pool, REPAIR_BATCH);
  } catch (error) {
    ctx.log.warn('team outbox: could not look for customers created but not recorded', describeError(error));
    return 0;
  }
  let written = 0;
  for (const row of rows) {
    try {
      const customer = await ctx.client().customers.get(row.customer_id ?? '');
      await ctx.onCreated(customer, row, formOf(ctx.cipher, row));
      written += 1;
    } catch (error) {
      ctx.log.warn('team outbox: a created customer is still not recorded; trying again later', {
        draftId: row.draft_id,
        ...describeError(error),
      });
    }
  }
  if (written > 0) ctx.log.info('team outbox: recorded customers whose drainer stopped first', { written });
  return written;
}

/** The personal data comes from the form; a row this desk cannot open still gets its customer, without it. */
function formOf(cipher: PersonalCipher, row: TeamOutboxRow): CustomerForm | undefined {
  try {
    return openForm(cipher, row);
  } catch {
    return undefined;
  }
}
