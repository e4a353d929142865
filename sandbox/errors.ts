import type { FieldError, FieldErrorCode } from '#contract/customer-rules.ts';
import { ERROR_MEDIA_TYPE, type Link, type Reply } from './reply.ts';

/** The service's error shapes (service-facts.md §2), thrown by handlers and answered as they are. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string> | undefined;
  readonly contentType: string;
  /** What was not found, where a profile answers that differently (the real service's 403 for a customer). */
  subject: 'customer' | undefined = undefined;

  constructor(
    status: number,
    body: Record<string, unknown>,
    headers?: Record<string, string>,
    contentType = ERROR_MEDIA_TYPE,
  ) {
    super(String(body.message ?? body.error ?? body.code));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.contentType = contentType;
  }

  toReply(): Reply {
    return { status: this.status, body: this.body, contentType: this.contentType, headers: this.headers };
  }
}

export function serviceError(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
): ApiError {
  return new ApiError(status, { code, message }, headers);
}

/** One entry of `_embedded.errors`: the shared rules' FieldError without its form hint. */
export interface EmbeddedError {
  code: FieldErrorCode;
  message: string;
  path: string;
  _links: Record<string, Link>;
}

export function embeddedError(
  error: Omit<FieldError, 'hint'>,
  links: Record<string, Link> = {},
): EmbeddedError {
  return { code: error.code, message: error.message, path: error.path, _links: links };
}

export function validationError(errors: EmbeddedError[]): ApiError {
  return new ApiError(400, {
    code: 'ValidationError',
    message: 'Validation error(s) present. See embedded errors list for more details.',
    _embedded: { errors },
  });
}

export function fieldValidationError(errors: readonly Omit<FieldError, 'hint'>[]): ApiError {
  return validationError(errors.map((error) => embeddedError(error)));
}

export const badRequest = (message: string): ApiError => serviceError(400, 'BadRequest', message);

export const notFound = (message = 'The requested resource was not found.'): ApiError =>
  serviceError(404, 'NotFound', message);

export function customerNotFound(): ApiError {
  const error = notFound('Customer not found.');
  error.subject = 'customer';
  return error;
}

export const invalidResourceState = (): ApiError =>
  serviceError(403, 'InvalidResourceState', 'Resource cannot be modified.');

export const forbidden = (): ApiError =>
  serviceError(403, 'Forbidden', 'The supplied credentials are not authorized for this resource.');

export const maxNumberOfResources = (message: string): ApiError =>
  serviceError(400, 'MaxNumberOfResources', message);

export const unsupportedContentType = (message: string): ApiError =>
  serviceError(415, 'UnsupportedRequestContentType', message);

export const fileTooLarge = (message = 'Document requests are limited to 10 MiB.'): ApiError =>
  serviceError(413, 'FileTooLarge', message);

export const serverError = (errorId: string, status = 500): ApiError =>
  serviceError(status, 'ServerError', `A server error occurred. Error ID: ${errorId}`);
