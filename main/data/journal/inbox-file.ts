import fs from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { JournalError } from './errors.ts';

/**
 * The webhook inbox's append-only log: what makes a delivery durable before its 200. The file is
 * pre-allocated and zero-filled, so an append only overwrites blocks the file already has and its
 * fdatasync writes data, not the size (half the cost of appending at the end). Each record carries the
 * log's generation and a CRC: reading stops at the first zero length, foreign generation or bad CRC (a
 * torn tail after a crash). Once its records are safely elsewhere (the journal synced) the log is reset:
 * a new generation written over the old, whose records then no longer count.
 */
export interface InboxLog {
  /** The records of the current generation found at open (before any append). */
  readonly recovered: readonly Buffer[];
  /** Bytes in use (header and records) and the file's size. */
  readonly used: number;
  readonly size: number;
  /** Whether `bytes` of records fit without growing the file. */
  fits(bytes: number): boolean;
  /**
   * Writes the records after the last, then syncs them; durable when it resolves. Grows the file if needed.
   * The sync runs on this thread: measured here (bench/webhooks.ts), handing it to libuv's thread pool cost
   * main about 70 µs a group in dispatch and wake-up, and its answer came back 1.3–1.4 ms after the call
   * against 0.4–0.5 ms for the sync itself, so deliveries waited longer and fewer shared a group.
   */
  append(records: readonly Buffer[]): Promise<void>;
  /** Starts a new generation: every record so far stops counting. Synced when it returns. */
  reset(): void;
  close(): void;
}

const MAGIC = 0x5654_494e; // "VTIN"
const FORMAT = 1;
export const LOG_HEADER_BYTES = 16;
export const RECORD_HEADER_BYTES = 12;
export const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
const ZEROS = Buffer.alloc(64 * 1024);

/** The bytes a record of `payload` takes in the log. */
export const recordBytes = (payload: Buffer): number => RECORD_HEADER_BYTES + payload.length;

export function openInboxLog(file: string, options: { chunkBytes?: number } = {}): InboxLog {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
  let size = fs.fstatSync(fd).size;
  let generation: number;
  let used = LOG_HEADER_BYTES;
  let recovered: Buffer[] = [];
  try {
    if (size < LOG_HEADER_BYTES) {
      generation = 1;
      zeroFill(fd, 0, chunkBytes);
      size = chunkBytes;
      writeHeader(fd, generation);
      fs.fsyncSync(fd);
      syncDirectory(path.dirname(file));
    } else {
      generation = readHeader(fd, file);
      const found = scan(fd, size, generation);
      recovered = found.records;
      used = found.end;
    }
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }

  const grow = (needed: number) => {
    const newSize = Math.ceil(needed / chunkBytes) * chunkBytes;
    zeroFill(fd, size, newSize - size);
    // The size changed: fsync (not fdatasync) so that the new length is durable too.
    fs.fsyncSync(fd);
    size = newSize;
  };

  return {
    get recovered() {
      return recovered;
    },
    get used() {
      return used;
    },
    get size() {
      return size;
    },
    fits: (bytes) => used + bytes <= size,
    async append(records) {
      if (records.length === 0) return;
      const total = records.reduce((sum, payload) => sum + recordBytes(payload), 0);
      if (used + total > size) grow(used + total);
      const buffer = Buffer.allocUnsafe(total);
      let at = 0;
      for (const payload of records) at = encodeRecord(buffer, at, generation, payload);
      fs.writeSync(fd, buffer, 0, total, used);
      fs.fdatasyncSync(fd);
      used += total;
      recovered = [];
    },
    reset() {
      generation = (generation % 0xffff_ffff) + 1;
      writeHeader(fd, generation);
      fs.fdatasyncSync(fd);
      used = LOG_HEADER_BYTES;
      recovered = [];
    },
    close: () => fs.closeSync(fd),
  };
}

function encodeRecord(buffer: Buffer, at: number, generation: number, payload: Buffer): number {
  buffer.writeUInt32LE(payload.length, at);
  buffer.writeUInt32LE(generation, at + 4);
  buffer.writeUInt32LE(checksum(generation, payload), at + 8);
  payload.copy(buffer, at + RECORD_HEADER_BYTES);
  return at + RECORD_HEADER_BYTES + payload.length;
}

/** Over the generation too: a record of an earlier generation can never pass for a current one. */
function checksum(generation: number, payload: Buffer): number {
  const prefix = Buffer.allocUnsafe(4);
  prefix.writeUInt32LE(generation, 0);
  return crc32(payload, crc32(prefix));
}

function scan(fd: number, size: number, generation: number): { records: Buffer[]; end: number } {
  const records: Buffer[] = [];
  const head = Buffer.alloc(RECORD_HEADER_BYTES);
  let at = LOG_HEADER_BYTES;
  while (at + RECORD_HEADER_BYTES <= size) {
    if (fs.readSync(fd, head, 0, RECORD_HEADER_BYTES, at) < RECORD_HEADER_BYTES) break;
    const length = head.readUInt32LE(0);
    if (length === 0 || head.readUInt32LE(4) !== generation) break;
    if (at + RECORD_HEADER_BYTES + length > size) break;
    const payload = Buffer.alloc(length);
    fs.readSync(fd, payload, 0, length, at + RECORD_HEADER_BYTES);
    if (checksum(generation, payload) !== head.readUInt32LE(8)) break;
    records.push(payload);
    at += RECORD_HEADER_BYTES + length;
  }
  return { records, end: at };
}

function writeHeader(fd: number, generation: number): void {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(FORMAT, 4);
  header.writeUInt32LE(generation, 8);
  fs.writeSync(fd, header, 0, LOG_HEADER_BYTES, 0);
}

function readHeader(fd: number, file: string): number {
  const header = Buffer.alloc(LOG_HEADER_BYTES);
  fs.readSync(fd, header, 0, LOG_HEADER_BYTES, 0);
  if (header.readUInt32LE(0) !== MAGIC || header.readUInt32LE(4) !== FORMAT) {
    throw new JournalError(
      `${file} is not a webhook inbox log of this version of Vetted; it was left untouched.`,
    );
  }
  return header.readUInt32LE(8);
}

/** Real zeros on disk (not a hole): blocks allocated now, so later overwrites change no metadata. */
function zeroFill(fd: number, from: number, bytes: number): void {
  for (let at = from, end = from + bytes; at < end; at += ZEROS.length) {
    fs.writeSync(fd, ZEROS, 0, Math.min(ZEROS.length, end - at), at);
  }
}

/** A file created is durable only once its directory entry is. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open a directory: the file's own fsync is what they offer.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
