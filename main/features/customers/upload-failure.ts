// An upload's failure in the words the renderer knows for it: the service's own refusals a reviewer can act
// on, a cancelled or unknown outcome; anything else is left to failures.ts's appErrorOf.
import { UPLOAD_PROBLEMS, type UploadProblemCode } from '#contract/document-rules.ts';
import { DeskError } from '#contract/errors.ts';
import { NetworkError, ServiceError } from '#main/data/service/index.ts';

/** The service's own refusals of an upload that a reviewer can act on, by code. */
const UPLOAD_REFUSALS: readonly UploadProblemCode[] = [
  'InvalidFileType',
  'FileTooLarge',
  'MaxNumberOfResources',
  'InvalidResourceState',
  'UnsupportedRequestContentType',
];

export const uploadProblem = (code: UploadProblemCode) => new DeskError(code, UPLOAD_PROBLEMS[code]);

/**
 * Any failure of an upload as one of the problems the renderer knows; undefined for anything else
 * (an expired login, a bug), which `appErrorOf` then describes.
 */
export function uploadFailure(error: unknown, cancelled: boolean): DeskError | undefined {
  if (error instanceof DeskError) return error;
  if (cancelled) return uploadProblem('UploadCancelled');
  if (error instanceof NetworkError) return uploadProblem('UploadOutcomeUnknown');
  if (!(error instanceof ServiceError)) return undefined;
  const known = UPLOAD_REFUSALS.find((code) => error.is(code));
  if (known) return uploadProblem(known);
  if (error.is('ValidationError')) {
    return error.fields.some((field) => field.path === '/documentType')
      ? uploadProblem('ValidationError')
      : new DeskError('UploadRefused', `${UPLOAD_PROBLEMS.UploadRefused} ${error.message}`);
  }
  return error.retryable ? uploadProblem('UploadOutcomeUnknown') : undefined;
}
