/** A webhook delivery's body as the service sends it: a fresh event about `customerId`, or one of `customerIds`. */
import { randomUUID } from 'node:crypto';

export function deliveryBody(options: {
  serviceBase: string;
  customerIds: readonly string[];
  customerId?: string;
  topic?: string;
}): { id: string; body: string } {
  const id = randomUUID();
  const customers = options.customerIds;
  const customerId =
    options.customerId ?? customers[Math.floor(Math.random() * customers.length)] ?? randomUUID();
  const created = new Date().toISOString();
  const href = `${options.serviceBase}/customers/${customerId}`;
  const body = JSON.stringify({
    _links: { customer: { href }, resource: { href } },
    id,
    created,
    timestamp: created,
    topic: options.topic ?? 'customer_verified',
    resourceId: customerId,
  });
  return { id, body };
}
