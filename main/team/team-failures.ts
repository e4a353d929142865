// Why joining a team or reaching its store failed, in the reviewer's words. Messages name the host and the
// login at most: never the password, the team key or the join code.
import { DeskError } from '../../contract/errors.ts';
import type { TeamConnection } from './join-code.ts';
import { TeamSchemaError } from './store/migrations.ts';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') return code;
  // Node reports a host with several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError.
  if (error instanceof AggregateError) return codeOf(error.errors[0]);
  return undefined;
}

/** The DeskError a reviewer reads for any failure met while joining or checking the team store. */
export function teamFailure(error: unknown, connection: TeamConnection): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof TeamSchemaError) return new DeskError('TeamNotAStore', error.message);
  const where = `${connection.host}:${connection.port}`;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  if (code === '28P01') {
    const words = `The team store refused this password for ${connection.user}. Check it, or ask your administrator to set it again.`;
    return new DeskError('TeamWrongPassword', words, { '/password': words });
  }
  if (code === '28000') {
    return new DeskError(
      'TeamNoAccess',
      `The team store at ${where} does not let ${connection.user} in from this computer: ask your administrator.`,
    );
  }
  if (code === '3D000') {
    return new DeskError(
      'TeamNotAStore',
      `There is no database ${connection.database} at ${where}: ask your administrator for a new join code.`,
    );
  }
  if (code === '42501' || code === '42P01') {
    return new DeskError(
      'TeamNoAccess',
      `${connection.user} may not read the team store: ask your administrator to add you (npm run team -- add-reviewer).`,
    );
  }
  if (code && (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code) || code.startsWith('ERR_TLS'))) {
    return new DeskError(
      'TeamTls',
      `The team store's certificate at ${where} could not be verified with the team's CA: ask your administrator for a new join code.`,
    );
  }
  if (/does not support SSL/i.test(message)) {
    return new DeskError(
      'TeamTls',
      `The team store at ${where} does not offer TLS, which this join code requires.`,
    );
  }
  if ((code && NETWORK_CODES.has(code)) || /timeout|terminated/i.test(message)) {
    return new DeskError(
      'TeamUnreachable',
      `Vetted could not reach the team store at ${where}. Check your network (or VPN) and try again.`,
    );
  }
  if (code === '53300' || code === '57P03') {
    return new DeskError(
      'TeamUnreachable',
      `The team store at ${where} is not taking connections now: try again shortly.`,
    );
  }
  const failure = new DeskError(
    'TeamFailed',
    `The team store at ${where} answered in a way Vetted did not expect; details are in the log.`,
  );
  // Kept for the log (never for the reviewer): what pg or the network actually said.
  failure.cause = error;
  return failure;
}
