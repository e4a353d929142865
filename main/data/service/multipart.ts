import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

export interface FilePart {
  name: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MultipartBody {
  /** `multipart/form-data; boundary=…` */
  contentType: string;
  length: number;
  /** A fresh stream of the body; `onProgress` follows the bytes as the transport takes them. */
  stream(onProgress?: (sent: number, total: number) => void): Readable;
}

// Small enough for smooth progress, large enough not to cost throughput.
const CHUNK_BYTES = 64 * 1024;
const encoder = new TextEncoder();

/** As the HTML form encoding does: a quote or line break would end the quoted name early. */
function quoted(value: string): string {
  return value.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function headerValue(value: string): string {
  return value.replace(/[\r\n]/g, '');
}

function* chunksOf(parts: Uint8Array[], total: number, onProgress?: (sent: number, total: number) => void) {
  let sent = 0;
  for (const part of parts) {
    for (let offset = 0; offset < part.byteLength; offset += CHUNK_BYTES) {
      const chunk = part.subarray(offset, offset + CHUNK_BYTES);
      yield chunk;
      sent += chunk.byteLength;
      onProgress?.(sent, total);
    }
  }
}

/**
 * A `multipart/form-data` body built by hand rather than with FormData, so that its length is
 * known up front and its upload can be followed chunk by chunk.
 */
export function multipartBody(
  fields: Record<string, string>,
  file: FilePart,
  boundary = `vetted-${randomUUID()}`,
): MultipartBody {
  const fieldParts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
  );
  const fileHead =
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.fileName)}"\r\n` +
    `Content-Type: ${headerValue(file.contentType)}\r\n\r\n`;
  const parts = [
    encoder.encode(fieldParts.join('') + fileHead),
    file.bytes,
    encoder.encode(`\r\n--${boundary}--\r\n`),
  ];
  const length = parts.reduce((sum, part) => sum + part.byteLength, 0);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    stream: (onProgress) =>
      Readable.from(chunksOf(parts, length, onProgress), { objectMode: false, highWaterMark: CHUNK_BYTES }),
  };
}
