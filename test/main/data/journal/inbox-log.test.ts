import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type InboxLog,
  LOG_HEADER_BYTES,
  openInboxLog,
  RECORD_HEADER_BYTES,
} from '#main/data/journal/inbox-file.ts';

const CHUNK = 4096;
const texts = (log: InboxLog) => log.recovered.map((record) => record.toString());

/** The webhook inbox's append-only log: pre-allocated, generations, and what survives a torn write. */
describe('inbox log', () => {
  let dir: string;
  let file: string;
  const open = () => openInboxLog(file, { chunkBytes: CHUNK });
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-inbox-log-'));
    file = path.join(dir, 'journal.db.inbox');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is created pre-allocated and zero-filled, private to the user', async () => {
    open().close();
    expect(statSync(file).size).toBe(CHUNK);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const bytes = readFileSync(file);
    expect(bytes.subarray(LOG_HEADER_BYTES).every((byte) => byte === 0)).toBe(true);
  });

  it('gives back what was appended, in order, after a reopen', async () => {
    const log = open();
    await log.append([Buffer.from('one'), Buffer.from('two')]);
    await log.append([Buffer.from('three')]);
    log.close();
    const reopened = open();
    expect(texts(reopened)).toEqual(['one', 'two', 'three']);
    expect(reopened.used).toBe(LOG_HEADER_BYTES + 3 * RECORD_HEADER_BYTES + 'onetwothree'.length);
    reopened.close();
  });

  it('stops at a torn record: a bad checksum or a length past the end', async () => {
    const log = open();
    await log.append([Buffer.from('first'), Buffer.from('second'), Buffer.from('third')]);
    log.close();
    // A byte of the second record's payload never reached the disk.
    const secondPayload = LOG_HEADER_BYTES + RECORD_HEADER_BYTES + 'first'.length + RECORD_HEADER_BYTES;
    overwrite(secondPayload, Buffer.from('X'));
    const torn = open();
    expect(texts(torn)).toEqual(['first']);
    torn.close();

    const lengthPastEnd = Buffer.alloc(4);
    lengthPastEnd.writeUInt32LE(CHUNK * 10, 0);
    overwrite(LOG_HEADER_BYTES, lengthPastEnd);
    const cut = open();
    expect(texts(cut)).toEqual([]);
    cut.close();
  });

  it('appends after the last good record once reopened, and the torn one never counts again', async () => {
    const log = open();
    await log.append([Buffer.from('kept'), Buffer.from('torn-and-long')]);
    log.close();
    overwrite(LOG_HEADER_BYTES + RECORD_HEADER_BYTES + 'kept'.length + RECORD_HEADER_BYTES, Buffer.from('?'));
    const recovered = open();
    await recovered.append([Buffer.from('next')]);
    recovered.close();
    const again = open();
    expect(texts(again)).toEqual(['kept', 'next']);
    again.close();
  });

  it('forgets every record on reset, even those a shorter new record does not overwrite', async () => {
    const log = open();
    await log.append([Buffer.from('a long old record'), Buffer.from('another old one')]);
    log.reset();
    await log.append([Buffer.from('new')]);
    log.close();
    const reopened = open();
    expect(texts(reopened)).toEqual(['new']);
    reopened.reset();
    reopened.close();
    const empty = open();
    expect(texts(empty)).toEqual([]);
    empty.close();
  });

  it('grows by whole zero-filled chunks when a group does not fit, and keeps every record', async () => {
    const log = open();
    const big = Buffer.alloc(CHUNK + 100, 'b');
    expect(log.fits(big.length + RECORD_HEADER_BYTES)).toBe(false);
    await log.append([Buffer.from('small'), big]);
    expect(log.size).toBe(2 * CHUNK);
    log.close();
    expect(statSync(file).size).toBe(2 * CHUNK);
    const reopened = open();
    expect(reopened.recovered.map((record) => record.length)).toEqual([5, big.length]);
    reopened.close();
  });

  it('refuses a file that is not an inbox log, leaving it untouched', async () => {
    const fd = openSync(file, 'w');
    writeSync(fd, Buffer.from('SQLite format 3\0 and more bytes'));
    closeSync(fd);
    const before = readFileSync(file);
    expect(() => open()).toThrow(/not a webhook inbox log/);
    expect(readFileSync(file)).toEqual(before);
  });

  function overwrite(at: number, bytes: Buffer): void {
    const fd = openSync(file, 'r+');
    writeSync(fd, bytes, 0, bytes.length, at);
    closeSync(fd);
  }
});
