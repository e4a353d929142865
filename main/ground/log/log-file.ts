import { closeSync, fstatSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** The log's name in the data directory; the one before it is kept as `vetted.log.1`. */
export const LOG_FILE_NAME = 'vetted.log';
/** Past this, the log starts afresh and the old one becomes `vetted.log.1`: at most twice this on disk. */
export const DEFAULT_MAX_LOG_BYTES = 5 * 1024 * 1024;

export interface LogFile {
  readonly path: string;
  write(line: string): void;
  close(): void;
}

/**
 * The log file in the data directory: request lines (the built-in sandbox's and Vetted's own) and
 * everything else the logger says, already scrubbed of secrets by the logger, which never receives
 * personal data. Written synchronously so that a crash loses no line before it; owner-only (0600),
 * like every other file of the data directory.
 */
export function openLogFile(dir: string, maxBytes = DEFAULT_MAX_LOG_BYTES): LogFile {
  const file = path.join(dir, LOG_FILE_NAME);
  const open = () => openSync(file, 'a', 0o600);
  let fd = open();
  let size = fstatSync(fd).size;
  let closed = false;
  return {
    path: file,
    write(line) {
      // A response that finishes while the host shuts down is logged after the file closed: the line
      // is dropped rather than written to a closed (or, worse, reused) descriptor.
      if (closed) return;
      const bytes = Buffer.from(`${line}\n`);
      if (size > 0 && size + bytes.length > maxBytes) {
        closeSync(fd);
        renameSync(file, `${file}.1`);
        fd = open();
        size = 0;
      }
      writeSync(fd, bytes);
      size += bytes.length;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
}
