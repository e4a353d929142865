// Private files for main's own state (the vault, settings): atomic 0600 writes that a crash cannot leave
// half-written, and corrupt files kept aside rather than deleted.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Writes via a 0600 temp file in the same directory, fsync, rename: readers see the old or the new file. */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncDirectory(path.dirname(file));
}

/** Renames `file` to `<file>.corrupt-<timestamp>` (never deletes it) and returns the new path. */
export function keepCorruptFileAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let keptAs = `${file}.corrupt-${stamp}`;
  for (let n = 2; fs.existsSync(keptAs); n++) keptAs = `${file}.corrupt-${stamp}-${n}`;
  fs.renameSync(file, keptAs);
  return keptAs;
}

export function readFileIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

// Only creates the directory (0700); an existing data directory keeps the permissions it has.
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

// Makes a rename or creation durable across a crash. Directories cannot be opened for fsync on Windows.
export function syncDirectory(dir: string): void {
  if (process.platform === 'win32') return;
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
