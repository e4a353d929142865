import type { AppError } from '#contract/errors.ts';
import { appErrorOf } from '../data/failures.ts';
import { teamAppError } from '../team/team-failures.ts';

/**
 * What a contract call answers for a failure a reviewer can act on: the failure vocabulary's words for the
 * journal and the service, and team mode's for its store (a solo desk meets them too, joining a team).
 */
export function toAppError(error: unknown): (AppError & { unexpected?: true }) | undefined {
  return teamAppError(error) ?? appErrorOf(error);
}
