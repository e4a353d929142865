import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOG_FILE_NAME, openLogFile } from '#main/ground/log/log-file.ts';
import { createLogger } from '#main/ground/log/logger.ts';

describe('the log file', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'vetted-log-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('appends lines, readable by the owner alone', () => {
    const dir = tempDir();
    const file = openLogFile(dir);
    file.write('one');
    file.write('two');
    file.close();
    const again = openLogFile(dir);
    again.write('three');
    again.close();
    expect(readFileSync(path.join(dir, LOG_FILE_NAME), 'utf8')).toBe('one\ntwo\nthree\n');
    if (process.platform !== 'win32')
      expect(statSync(path.join(dir, LOG_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it('starts afresh past its size, keeping the one before: never more than twice the cap on disk', () => {
    const dir = tempDir();
    const file = openLogFile(dir, 100);
    for (let i = 0; i < 30; i++) file.write(`line ${String(i).padStart(2, '0')} ........`);
    file.close();
    const current = readFileSync(path.join(dir, LOG_FILE_NAME), 'utf8');
    const previous = readFileSync(path.join(dir, `${LOG_FILE_NAME}.1`), 'utf8');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(100);
    expect(Buffer.byteLength(previous)).toBeLessThanOrEqual(100);
    expect(current.trimEnd().split('\n').at(-1)).toBe('line 29 ........');
    // No line is split between the two files.
    for (const line of `${previous}${current}`.trimEnd().split('\n')) expect(line).toMatch(/^line \d\d \.+$/);
  });

  it('holds what the logger writes, with its secrets already scrubbed', () => {
    const dir = tempDir();
    const file = openLogFile(dir);
    const log = createLogger((line) => file.write(line));
    log.addSecret('very-secret-value');
    log.info('token refused', { detail: 'sent very-secret-value' });
    file.close();
    const text = readFileSync(path.join(dir, LOG_FILE_NAME), 'utf8');
    expect(text).toContain('token refused');
    expect(text).not.toContain('very-secret-value');
  });
});
