import { DeskError } from '../../contract/errors.ts';
import { describeConnectionFailure } from '../service/connection-test.ts';

/** A failure in words for the reviewer: never a URL's secret part, a body or a stack. */
export function failureMessage(error: unknown): string {
  if (error instanceof DeskError) return error.message;
  if (error instanceof Error && error.name === 'NotConfiguredError') return error.message;
  return describeConnectionFailure(error).message;
}
