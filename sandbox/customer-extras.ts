import type { CustomerExtras } from './profile-types.ts';
import type { App } from './types.ts';

/**
 * Fields the real service accepts and returns beside the interface's (`phone`, `correlationId`),
 * in a table of their own so a data file of the interface profile needs no migration. The phone
 * is personal data: sealed like the address.
 */
interface ExtrasRow extends Record<string, unknown> {
  phone: string | null;
  correlation_id: string | null;
}

/** Keeps the extras a body carried; fields it did not carry keep their earlier value. Inside a transaction. */
export function saveCustomerExtras(app: App, customerId: string, extras: CustomerExtras): void {
  if (extras.phone === undefined && extras.correlationId === undefined) return;
  app.store.run(
    `INSERT INTO customer_extras (customer_id, phone, correlation_id) VALUES (?, ?, ?)
     ON CONFLICT (customer_id) DO UPDATE SET phone = COALESCE(excluded.phone, phone),
       correlation_id = COALESCE(excluded.correlation_id, correlation_id)`,
    customerId,
    extras.phone === undefined ? null : app.secrets.seal(extras.phone),
    extras.correlationId ?? null,
  );
}

export function readCustomerExtras(app: App, customerId: string): CustomerExtras {
  const row = app.store.get<ExtrasRow>(
    'SELECT phone, correlation_id FROM customer_extras WHERE customer_id = ?',
    customerId,
  );
  if (!row) return {};
  return {
    ...(row.phone !== null ? { phone: app.secrets.open(row.phone) } : {}),
    ...(row.correlation_id !== null ? { correlationId: row.correlation_id } : {}),
  };
}
