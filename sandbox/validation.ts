import type { z } from 'zod';
import type { FieldErrorCode } from '#contract/customer-rules.ts';
import { type EmbeddedError, embeddedError, validationError } from './errors.ts';

/**
 * Parses a JSON body with a zod schema; anything wrong becomes the service's `400 ValidationError`
 * with one embedded error per field. Unknown fields are ignored (zod objects strip them).
 * A refinement picks its field code with `params: { code }`; otherwise a missing value is
 * `Required`, a value of the wrong JSON type `InvalidFormat`, and anything else `Invalid`.
 */
export function parseBody<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(toEmbeddedErrors(result.error, input));
}

function toEmbeddedErrors(error: z.ZodError, input: unknown): EmbeddedError[] {
  const seen = new Set<string>();
  const errors: EmbeddedError[] = [];
  for (const issue of error.issues) {
    const path = `/${issue.path.map(String).join('/')}`;
    if (seen.has(path)) continue;
    seen.add(path);
    const code = codeOf(issue, input);
    errors.push(embeddedError({ path, code, message: messageOf(issue, code) }));
  }
  return errors;
}

function codeOf(issue: z.core.$ZodIssue, input: unknown): FieldErrorCode {
  const chosen = issue.code === 'custom' ? (issue.params?.code as FieldErrorCode | undefined) : undefined;
  if (chosen) return chosen;
  if (issue.path.length === 0) return 'Invalid';
  if (valueAt(input, issue.path) === undefined) return 'Required';
  return issue.code === 'invalid_type' ? 'InvalidFormat' : 'Invalid';
}

function messageOf(issue: z.core.$ZodIssue, code: FieldErrorCode): string {
  if (issue.code === 'custom') return issue.message;
  if (issue.path.length === 0) return 'Request body must be a JSON object.';
  const last = issue.path.at(-1);
  const label = typeof last === 'string' && last ? last[0]!.toUpperCase() + last.slice(1) : 'Body';
  return code === 'Required' ? `${label} required.` : `${label} invalid.`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
