// The service allows one retry per customer (POST with the full SSN): recorded as used, so the app never
// offers it twice. The full SSN itself is never stored.
import type { Statements, Sync } from './db.ts';
import { JournalError } from './errors.ts';
import type { RetriesRepository, RetryRecord } from './repositories/retries.ts';
import { type Clock, isoTime } from './time.ts';

interface RetryRow {
  customer_id: string;
  used_at: string;
  outcome: string | null;
}

export function retriesRepository(sql: Statements, clock: Clock): Sync<RetriesRepository> {
  const get = (customerId: string) => {
    const row = sql.get<RetryRow>('SELECT * FROM retries WHERE customer_id = :customerId AND released = 0', {
      customerId,
    });
    return row && toRetry(row);
  };
  return {
    record(customerId, outcome) {
      if (!sql.get('SELECT 1 FROM customers WHERE id = :customerId', { customerId })) {
        throw new JournalError(`No customer ${customerId} in the journal`);
      }
      sql.run(
        `INSERT INTO retries (customer_id, used_at, outcome) VALUES (:customerId, :at, :outcome)
         ON CONFLICT (customer_id) DO UPDATE SET outcome = excluded.outcome`,
        { customerId, at: isoTime(clock()), outcome },
      );
      return get(customerId)!;
    },
    get,
    list() {
      return sql
        .all<RetryRow>('SELECT * FROM retries WHERE released = 0 ORDER BY used_at, customer_id')
        .map(toRetry);
    },
    release(customerId) {
      sql.run('DELETE FROM retries WHERE customer_id = :customerId', { customerId });
    },
  };
}

function toRetry(row: RetryRow): RetryRecord {
  return { customerId: row.customer_id, usedAt: row.used_at, outcome: row.outcome };
}
