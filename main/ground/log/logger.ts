/**
 * Main's one logger: a JSON line per entry. Secrets are registered as they become known and
 * scrubbed from every line as a second line of defence: callers already never pass them.
 */
export type LogLevel = 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | undefined>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** Never let this value reach a log line again. */
  addSecret(value: string): void;
}

const REDACTED = '[redacted]';
const MIN_SECRET_LENGTH = 6;

export function createLogger(
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const secrets = new Set<string>();
  const scrub = (text: string): string => {
    let out = text;
    for (const secret of secrets) out = out.replaceAll(secret, REDACTED);
    return out;
  };
  const entry =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      write(scrub(JSON.stringify({ at: new Date().toISOString(), level, msg, ...fields })));
    };
  return {
    info: entry('info'),
    warn: entry('warn'),
    error: entry('error'),
    addSecret(value) {
      if (value.length >= MIN_SECRET_LENGTH) secrets.add(value);
    },
  };
}

/** For an unexpected error: its name and message, scrubbed later by the logger; stack only in development. */
export function describeError(error: unknown): LogFields {
  if (error instanceof Error) return { error: `${error.name}: ${error.message}` };
  return { error: String(error) };
}
