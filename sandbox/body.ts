import type { IncomingMessage } from 'node:http';
import { HAL_MEDIA_TYPE } from './reply.ts';

export const MiB = 1024 * 1024;

/** Past this the sandbox stops draining an oversized body and drops the connection after answering. */
const DRAIN_LIMIT = 64 * MiB;

export interface RequestBytes {
  bytes: Buffer;
  /** The body was longer than the limit; `bytes` is empty then. */
  tooLarge: boolean;
  /** The body was longer than the sandbox is willing to drain; close the connection after answering. */
  abandoned: boolean;
}

/** The client went away before its request was complete; there is nobody left to answer. */
export class ClientGone extends Error {}

/**
 * Reads a request body, keeping at most `limit` bytes. An oversized body is drained (not kept) so
 * the client, still sending, can read the 413 that follows instead of seeing a reset.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<RequestBytes> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const settle = (result: RequestBytes | Error): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      length += chunk.length;
      if (length <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (length > DRAIN_LIMIT) {
        req.pause();
        settle({ bytes: Buffer.alloc(0), tooLarge: true, abandoned: true });
      }
    };
    req.on('data', onData);
    req.once('end', () =>
      settle({
        bytes: length > limit ? Buffer.alloc(0) : Buffer.concat(chunks),
        tooLarge: length > limit,
        abandoned: false,
      }),
    );
    req.once('error', () => settle(new ClientGone('request stream failed')));
    req.once('close', () => {
      if (!req.complete) settle(new ClientGone('client closed the connection mid-request'));
    });
  });
}

export interface MediaType {
  /** Lower-case `type/subtype`, '' when the header is missing. */
  essence: string;
  /** Parameter names lower-cased; values unquoted. */
  params: Record<string, string>;
}

export function parseMediaType(header: string | undefined): MediaType {
  if (!header) return { essence: '', params: {} };
  const [essence = '', ...rest] = splitOutsideQuotes(header, ';');
  const params: Record<string, string> = {};
  for (const part of rest) {
    const equals = part.indexOf('=');
    if (equals < 0) continue;
    const name = part.slice(0, equals).trim().toLowerCase();
    params[name] = unquote(part.slice(equals + 1).trim());
  }
  return { essence: essence.trim().toLowerCase(), params };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    if (char === '\\' && quoted && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

export function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

export function isJsonMediaType(essence: string): boolean {
  return essence === HAL_MEDIA_TYPE || essence === 'application/json';
}

/** The API answers only clients that ask for the versioned media type. */
export function acceptsHal(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => parseMediaType(range).essence === HAL_MEDIA_TYPE);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type JsonParse = { ok: true; value: unknown } | { ok: false; reason: string };

/** Strict JSON: UTF-8, one value, nothing else; never throws. */
export function parseJson(bytes: Buffer): JsonParse {
  if (bytes.length === 0) return { ok: false, reason: 'The request body is empty.' };
  try {
    return { ok: true, value: JSON.parse(utf8.decode(bytes)) };
  } catch {
    return { ok: false, reason: 'The request body is not valid JSON or is incomplete.' };
  }
}
