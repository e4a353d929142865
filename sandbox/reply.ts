/** What a handler answers, before it is put on the wire (and before idempotency stores it). */
export const HAL_MEDIA_TYPE = 'application/vnd.service.v1.hal+json';
export const ERROR_MEDIA_TYPE = `${HAL_MEDIA_TYPE}; profile="http://nocarrier.co.uk/profiles/vnd.error/"`;
export const JSON_MEDIA_TYPE = 'application/json';

export interface Reply {
  status: number;
  /** Serialised as JSON; undefined for an empty body. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A reply as bytes: what is sent, stored for idempotent replays, and replayed. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function halReply(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return { status, body, contentType: HAL_MEDIA_TYPE, headers };
}

/** `201 Created` with the new resource's URL and no body, as the service answers creates. */
export function createdReply(location: string): Reply {
  return { status: 201, headers: { Location: location } };
}

export function toWire(reply: Reply): WireReply {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) return { status: reply.status, headers, body: Buffer.alloc(0) };
  headers['Content-Type'] = reply.contentType ?? HAL_MEDIA_TYPE;
  return { status: reply.status, headers, body: Buffer.from(JSON.stringify(reply.body)) };
}

export interface Link {
  href: string;
  type?: string;
  'resource-type'?: string;
}

/** A link to one of the sandbox's own resources, typed the way the service types them. */
export function resourceLink(href: string, resourceType: string): Link {
  return { href, type: HAL_MEDIA_TYPE, 'resource-type': resourceType };
}
