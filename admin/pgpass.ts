// The administrator's password from ~/.pgpass (or $PGPASSFILE), as libpq reads it: lines
// host:port:database:user:password, `*` matching anything, `\:` and `\\` escaped. Read here rather than by
// node-postgres, whose own support is deprecated (and warns on every use).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConnectionTarget } from '#main/team/store/connection-error.ts';

/** The fields of one line, unescaped. */
function fields(line: string): string[] {
  const out: string[] = [];
  let current = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (char === '\\' && i + 1 < line.length) current += line[++i];
    else if (char === ':') {
      out.push(current);
      current = '';
    } else current += char;
  }
  out.push(current);
  return out;
}

export function pgpassFile(env: NodeJS.ProcessEnv = process.env): string {
  return env.PGPASSFILE ?? path.join(os.homedir(), '.pgpass');
}

/** The first matching line's password; undefined when none matches or the file is absent or unsafe. */
export function pgpassPassword(target: ConnectionTarget, file = pgpassFile()): string | undefined {
  let text: string;
  try {
    // libpq ignores a file others may read; so do we.
    if (process.platform !== 'win32' && (fs.statSync(file).mode & 0o077) !== 0) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const wanted = [target.host, String(target.port), target.database, target.user];
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const parts = fields(line);
    if (parts.length < 5) continue;
    if (wanted.every((value, i) => parts[i] === '*' || parts[i] === value)) return parts.slice(4).join(':');
  }
  return undefined;
}
