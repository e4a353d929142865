// Rows coming back from the team store, checked with zod: the database is a boundary (another desk, another
// version of Vetted, or an administrator's hand wrote what it holds). Times leave as ISO strings, as the
// SQLite journal gives them.
import { z } from 'zod';
import { JournalError } from '#main/data/journal/errors.ts';

/**
 * A status is whatever the service sends, and PostgreSQL text cannot hold NUL: NUL and backslash are escaped
 * on the way in (`toPgText`) and back on the way out (`PgText`), so every other status reads as it is.
 */
export const toPgText = (text: string): string =>
  text.replace(/[\\\0]/g, (c) => (c === '\0' ? '\\0' : '\\\\'));
export const PgText = z
  .string()
  .transform((text) => text.replace(/\\([\\0])/g, (_, c) => (c === '0' ? '\0' : '\\')));

/** bigint/bigserial come back from node-postgres as text (they may exceed 2^53; ours never will). */
export const PgSeq = z.coerce.number().int().nonnegative();
/** timestamptz comes back as a Date; the journal speaks ISO-8601 UTC text. */
export const PgTime = z.date().transform((date) => date.toISOString());
export const PgTimeOrNull = PgTime.nullable();

/**
 * `text` as JSON of `schema`'s form; undefined when it is not JSON or not of that form. JSON.parse's message
 * quotes the text, which may be personal data, so it is never kept: callers say in their own words what failed.
 */
export function jsonOf<T>(schema: z.ZodType<T>, text: string): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Each row checked against `schema`; the error names the table and what is wrong, never a value. */
export function parseRows<T>(schema: z.ZodType<T>, table: string, rows: readonly unknown[]): T[] {
  return rows.map((row) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) return parsed.data;
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || '(row)').join(', ');
    throw new JournalError(`The team store's ${table} hold a row this Vetted cannot read (${where}).`);
  });
}

/** The one row a statement must return (INSERT … RETURNING, count(*)). */
export function parseRow<T>(schema: z.ZodType<T>, table: string, rows: readonly unknown[]): T {
  const [row] = parseRows(schema, table, rows.slice(0, 1));
  if (row === undefined)
    throw new JournalError(`The team store's ${table} returned no row where one was due.`);
  return row;
}

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;
/** A row's type under the journal's names: `customer_id` becomes `customerId`. */
export type CamelKeys<T> = { [K in keyof T & string as Camel<K>]: T[K] };

/** A parsed row under the journal's names, its values as they are (the schema chose the columns). */
export function camelKeys<T extends object>(row: T): CamelKeys<T> {
  const entries = Object.entries(row).map(([key, value]) => [
    key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
    value,
  ]);
  return Object.fromEntries(entries) as CamelKeys<T>;
}

export const CountSchema = z.object({ n: z.coerce.number().int().nonnegative() });
