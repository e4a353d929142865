// Why a connection to the team store failed, in the words a reviewer or administrator reads. node-postgres
// reports failures as SQLSTATE codes, socket error codes and TLS error codes; this turns each into what to do.
// A message never holds the password (the server never echoes it, and `scrub` removes it should anything).

export type TeamConnectionFailure = 'auth' | 'database' | 'unreachable' | 'tls' | 'server' | 'unexpected';

export class TeamConnectionError extends Error {
  override name = 'TeamConnectionError';
  readonly kind: TeamConnectionFailure;
  /** The password itself is what the server refused (not the login, not where it came from). */
  readonly passwordRefused: boolean;
  constructor(kind: TeamConnectionFailure, message: string, options: { passwordRefused?: boolean } = {}) {
    super(message);
    this.kind = kind;
    this.passwordRefused = options.passwordRefused ?? false;
  }
}

/** Where the failed connection was going; the password only to make sure it is never repeated. */
export interface ConnectionTarget {
  host: string;
  port: number;
  database: string;
  user: string;
}

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  errors?: unknown;
  cause?: unknown;
}

/** Every error code in an error, its AggregateError parts (several addresses) and its causes. */
function codesOf(error: unknown, depth = 0): string[] {
  if (!error || typeof error !== 'object' || depth > 4) return [];
  const e = error as ErrorLike;
  const own = typeof e.code === 'string' ? [e.code] : [];
  const parts = Array.isArray(e.errors) ? e.errors.flatMap((part) => codesOf(part, depth + 1)) : [];
  return [...own, ...parts, ...codesOf(e.cause, depth + 1)];
}

function messageOf(error: unknown): string {
  return error && typeof error === 'object' && typeof (error as ErrorLike).message === 'string'
    ? ((error as ErrorLike).message as string)
    : String(error);
}

/** Removes every secret (and its URL-encoded form) from a text. */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

function tlsFailure(codes: string, message: string, where: string): string | undefined {
  if (/does not support SSL/i.test(message)) {
    return `The database server at ${where} does not support TLS (SSL), but this connection requires it (sslmode verify-full). Turn on ssl in the server, or ask your administrator.`;
  }
  if (/SELF_SIGNED/.test(codes)) {
    return `The database server at ${where} presented a self-signed certificate that the team's CA does not vouch for. Check the CA certificate in the join code.`;
  }
  if (/ALTNAME|HOSTNAME/.test(codes)) {
    return `The database server's certificate does not name ${where.replace(/:\d+$/, '')}: connect by a host name the certificate names.`;
  }
  if (/CERT_HAS_EXPIRED|CERT_NOT_YET_VALID/.test(codes)) {
    return `The database server's certificate has expired or is not valid yet (check this computer's clock too).`;
  }
  if (/UNABLE_TO_(GET_ISSUER|VERIFY_LEAF)|CERT_UNTRUSTED|CERT_CHAIN|CERT_SIGNATURE/.test(codes)) {
    return `The database server's certificate was issued by an authority (CA) this connection does not trust. Check the team's CA certificate.`;
  }
  if (/^ERR_TLS|^ERR_SSL|CERT/.test(codes)) return `The secure (TLS) connection to ${where} failed.`;
  return undefined;
}

/** What a desk says when the store turns its login away: `team.status` and every refused call alike. */
export const notLetIn = (user: string) =>
  `The team store does not let "${user}" log in (removed from the team, or not allowed from here by pg_hba.conf).`;

/** The failure as a TeamConnectionError (unchanged if it already is one). */
export function teamConnectionError(
  error: unknown,
  target: ConnectionTarget,
  secrets: readonly string[] = [],
): TeamConnectionError {
  if (error instanceof TeamConnectionError) return error;
  const codes = codesOf(error);
  const codeText = codes.join(' ');
  const message = messageOf(error);
  const where = `${target.host}:${target.port}`;
  const fail = (kind: TeamConnectionFailure, words: string, passwordRefused = false) =>
    new TeamConnectionError(kind, scrub(words, secrets), { passwordRefused });
  if (codes.includes('28P01')) {
    return fail(
      'auth',
      `The team store refused the password for "${target.user}": check the password.`,
      true,
    );
  }
  if (codes.includes('28000')) return fail('auth', notLetIn(target.user));
  if (codes.includes('42501')) {
    return fail(
      'auth',
      `"${target.user}" may log in but is not a member of this team: ask your administrator.`,
    );
  }
  if (/SASL|password must be a string/i.test(message)) {
    return fail('auth', `The team store asks for a password for "${target.user}", and none was given.`, true);
  }
  if (codes.includes('3D000')) {
    return fail('database', `There is no database "${target.database}" at ${where}.`);
  }
  const tls = tlsFailure(codeText, message, where);
  if (tls) return fail('tls', tls);
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN')) {
    return fail('unreachable', `The host name ${target.host} could not be found: check the host.`);
  }
  if (/ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH/.test(codeText)) {
    return fail(
      'unreachable',
      `The team store at ${where} could not be reached (is PostgreSQL running there?).`,
    );
  }
  if (codes.includes('ETIMEDOUT') || /timeout/i.test(message)) {
    return fail('unreachable', `The team store at ${where} did not answer in time.`);
  }
  // A store on several nodes, none writable now (the primary gone, its standby not yet promoted).
  if (codes.includes('ENOWRITABLE')) return fail('unreachable', message);
  if (codes.includes('57P03') || codes.includes('53300')) {
    return fail(
      'server',
      `The team store at ${where} cannot take connections now (starting, or too many): try again soon.`,
    );
  }
  if (/terminat/i.test(message)) {
    return fail('unreachable', `The connection to the team store at ${where} was closed.`);
  }
  return fail('unexpected', `Connecting to the team store at ${where} failed: ${message}`);
}
