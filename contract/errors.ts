import { z } from 'zod';

/** What crosses from main to the renderer when a call fails: never a stack trace. */
export const AppErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type AppError = z.infer<typeof AppErrorSchema>;

/** Codes the contract layer itself produces; handlers add their own. */
export const ContractErrorCode = {
  badInput: 'BadInput',
  unknownChannel: 'UnknownChannel',
  forbidden: 'Forbidden',
  internal: 'Internal',
} as const;

/**
 * A failure a handler reports on purpose. Its code, message and fields cross to the renderer as
 * they are, so the message must be written for a person and must hold no secret.
 */
export class DeskError extends Error {
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'DeskError';
    this.code = code;
    this.fields = fields;
  }

  toAppError(): AppError {
    return this.fields
      ? { code: this.code, message: this.message, fields: this.fields }
      : { code: this.code, message: this.message };
  }
}

/** The renderer-side twin of DeskError: thrown by the unwrapped API when a call fails. */
export class VettedError extends Error {
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(error: AppError) {
    super(error.message);
    this.name = 'VettedError';
    this.code = error.code;
    this.fields = error.fields ?? {};
  }
}

export const ResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: AppErrorSchema }),
]);
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Turns a zod failure into field messages keyed by JSON pointer ("/email"), "/" for the whole value. */
export function zodFields(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = `/${issue.path.map(String).join('/')}`;
    fields[path] ??= issue.message;
  }
  return fields;
}

/** The words a schema wrote for the reviewer (a custom issue with `params.told`), when one did. */
export function toldMessage(error: z.ZodError): string | undefined {
  for (const issue of error.issues) {
    if (issue.code === 'custom' && issue.params?.told === true) return issue.message;
  }
  return undefined;
}
