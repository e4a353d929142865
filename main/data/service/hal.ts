import { z } from 'zod';

/**
 * The service's resources, read leniently: unknown fields pass through, statuses and topics are
 * plain strings (the real service has more than the interface shows), and what the interface
 * leaves "not shown" is optional.
 */

export const HAL_MEDIA_TYPE = 'application/vnd.service.v1.hal+json';

export interface Link {
  href: string;
  type?: string;
  'resource-type'?: string;
}

function isLink(value: unknown): value is Link {
  if (typeof value !== 'object' || value === null) return false;
  const { href, type, 'resource-type': resourceType } = value as Record<string, unknown>;
  return (
    typeof href === 'string' &&
    (type === undefined || typeof type === 'string') &&
    (resourceType === undefined || typeof resourceType === 'string')
  );
}

/** A relation's link: itself, or the first of an array of them. */
function asLink(value: unknown): Link | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (isLink(first)) return first;
  const href = (first as { href?: unknown } | null)?.href;
  return typeof href === 'string' ? { href } : undefined;
}

/**
 * HAL `_links`, keeping each relation's (first) link that has an `href` and dropping the rest.
 * A plain function rather than a record schema, and no copy when all is well (the usual case):
 * this runs on every resource read.
 */
export const halLinks = z
  .unknown()
  .optional()
  .transform((raw): Record<string, Link> => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
    const record = raw as Record<string, unknown>;
    let clean = true;
    for (const rel in record) {
      if (!isLink(record[rel])) {
        clean = false;
        break;
      }
    }
    if (clean) return record as Record<string, Link>;
    const links: Record<string, Link> = {};
    for (const [rel, value] of Object.entries(record)) {
      const link = asLink(value);
      if (link) links[rel] = link;
    }
    return links;
  });

export const customerSchema = z.looseObject({
  _links: halLinks,
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  type: z.string(),
  /** `verified`, `retry`, `document`, `suspended`, and others (`unverified`, `kba`, `deactivated`, …). */
  status: z.string(),
  created: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

/** What Vetted reads from a customer itself; anything else the service gives is "reported" (below). */
const CUSTOMER_CORE_FIELDS: ReadonlySet<string> = new Set([
  '_links',
  '_embedded',
  'id',
  'firstName',
  'lastName',
  'email',
  'type',
  'status',
  'created',
]);

/**
 * The fields a customer's answer carries beyond those Vetted reads: today's service adds the address,
 * `phone`, `correlationId`, `businessName`, and may add more. All are kept, and all are treated as
 * personal (encrypted at rest, masked on screen, never logged): an unknown field may well be.
 */
export function reportedFields(customer: object): Record<string, unknown> {
  const reported: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(customer)) {
    if (!CUSTOMER_CORE_FIELDS.has(field) && value !== undefined) reported[field] = value;
  }
  return reported;
}

export const failureReasonSchema = z.looseObject({ reason: z.string(), description: z.string().optional() });

export const documentSchema = z.looseObject({
  _links: halLinks,
  id: z.string(),
  type: z.string(),
  /** `pending` or `reviewed`. */
  status: z.string(),
  /** `pending`, `accepted` or `rejected`. */
  documentVerificationStatus: z.string().optional(),
  created: z.string(),
  failureReason: z.string().optional(),
  allFailureReasons: z.array(failureReasonSchema).optional(),
});
export type Document = z.infer<typeof documentSchema>;

export const eventSchema = z.looseObject({
  _links: halLinks,
  id: z.string(),
  created: z.string(),
  timestamp: z.string().optional(),
  topic: z.string(),
  resourceId: z.string(),
});
export type ServiceEvent = z.infer<typeof eventSchema>;

export const subscriptionSchema = z.looseObject({
  _links: halLinks,
  id: z.string(),
  url: z.string(),
  // Not in the interface document; a subscription that does not say is taken as active.
  paused: z.boolean().default(false),
  created: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const attemptMessageSchema = z.looseObject({
  timestamp: z.string().optional(),
  url: z.string().optional(),
  headers: z.unknown(),
  body: z.string().optional(),
});

export const deliveryAttemptSchema = z.looseObject({
  id: z.string(),
  request: attemptMessageSchema.optional(),
  // Absent when the receiver never answered (timeout, refused).
  response: attemptMessageSchema.extend({ statusCode: z.number().optional() }).optional(),
});

export const deliverySchema = z.looseObject({
  _links: halLinks,
  id: z.string(),
  topic: z.string(),
  eventId: z.string().optional(),
  subscriptionId: z.string().optional(),
  attempts: z.array(deliveryAttemptSchema).default([]),
});
export type Delivery = z.infer<typeof deliverySchema>;

/** A HAL collection: `{_links, _embedded: {<key>: [...]}, total}`. */
function pageOf<K extends string, T extends z.ZodType>(key: K, item: T) {
  const shape = { [key]: z.array(item).default([]) } as { [P in K]: z.ZodDefault<z.ZodArray<T>> };
  const embedded = z.looseObject(shape);
  return z.looseObject({
    _links: halLinks,
    // `{}` is valid input (the list has a default), which TypeScript cannot see through the generic key.
    _embedded: embedded.prefault({} as z.input<typeof embedded>),
    total: z.number().optional(),
  });
}

export const customerPageSchema = pageOf('customers', customerSchema);
export const documentPageSchema = pageOf('documents', documentSchema);
export const eventPageSchema = pageOf('events', eventSchema);
export const subscriptionPageSchema = pageOf('webhook-subscriptions', subscriptionSchema);
export const deliveryPageSchema = pageOf('webhooks', deliverySchema);

/** The last path segment of a resource URL: its id, decoded (a malformed encoding as it stands). */
export function idFromUrl(url: string): string {
  const segment = new URL(url).pathname.split('/').filter(Boolean).at(-1) ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
