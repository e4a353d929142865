import { parseMediaType } from './body.ts';

/**
 * A small multipart/form-data parser (RFC 7578) over a body already in memory. It only accepts a
 * complete body: a missing closing delimiter, a part without its blank line, or a boundary that
 * never appears is an error, never a partial result.
 */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {}

const MAX_PARTS = 16;
const MAX_HEADER_BYTES = 8 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a multipart/form-data Content-Type, or null if it has none usable. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const { params } = parseMediaType(contentType);
  const boundary = params.boundary;
  if (!boundary || boundary.length > 70) return null;
  return boundary;
}

export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`);
  let position = firstDelimiterEnd(body, delimiter);
  const parts: FormPart[] = [];
  for (;;) {
    if (startsWith(body, position, '--')) return parts; // closing delimiter; the epilogue is ignored
    position = skipTransportPadding(body, position);
    if (!startsWith(body, position, '\r\n')) throw new MultipartError('Malformed multipart delimiter.');
    position += CRLF.length;
    if (parts.length === MAX_PARTS) throw new MultipartError('Too many parts.');
    const headerEnd = body.indexOf(HEADER_END, position);
    if (headerEnd < 0 || headerEnd - position > MAX_HEADER_BYTES) {
      throw new MultipartError('Multipart part headers are incomplete.');
    }
    const dataEnd = body.indexOf(nextDelimiter, headerEnd + HEADER_END.length);
    if (dataEnd < 0) throw new MultipartError('Multipart body is incomplete.');
    const headers = parsePartHeaders(body.subarray(position, headerEnd).toString('latin1'));
    parts.push({ ...headers, data: body.subarray(headerEnd + HEADER_END.length, dataEnd) });
    position = dataEnd + nextDelimiter.length;
  }
}

function firstDelimiterEnd(body: Buffer, delimiter: Buffer): number {
  const start = body.indexOf(delimiter);
  if (start < 0) throw new MultipartError('Multipart boundary not found in the body.');
  if (start > 0 && !(body[start - 2] === 0x0d && body[start - 1] === 0x0a)) {
    throw new MultipartError('Malformed multipart preamble.');
  }
  return start + delimiter.length;
}

// RFC 2046 allows spaces and tabs between a delimiter and its line break.
function skipTransportPadding(body: Buffer, position: number): number {
  let at = position;
  while (body[at] === 0x20 || body[at] === 0x09) at++;
  return at;
}

function startsWith(body: Buffer, position: number, text: string): boolean {
  return body.toString('latin1', position, position + text.length) === text;
}

function parsePartHeaders(block: string): Omit<FormPart, 'data'> {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('Malformed multipart part header.');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    if (name === 'content-type') contentType = value;
  }
  if (!disposition) throw new MultipartError('A multipart part has no Content-Disposition.');
  const { essence, params } = parseMediaType(disposition);
  if (essence !== 'form-data' || params.name === undefined) {
    throw new MultipartError('A multipart part is not a named form-data field.');
  }
  const part: Omit<FormPart, 'data'> = { name: decodeUtf8(params.name) };
  if (params.filename !== undefined) part.filename = decodeUtf8(params.filename);
  if (contentType) part.contentType = contentType;
  return part;
}

// Header bytes were read as latin1; browsers and undici send UTF-8 names there.
function decodeUtf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}
