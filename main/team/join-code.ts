// Join codes: what an administrator hands a reviewer (`team add-reviewer NAME`, `team join-code NAME`) so
// their desk can join the team: where the team store is, as whom to log in, the TLS settings, the team key,
// and the code's own id and secret. Never the password, which reaches the reviewer by another way and is
// typed once into Settings → Team. A code is for one reviewer and one use: the store keeps the SHA-256 of
// its secret and spends it when a desk joins with it (vetted.use_join_code, team store migration 9).
// A join code is a secret (it holds the team key): it is kept in no file, and only in the vault once used.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { type TeamConnection, TeamConnectionSchema } from '../ground/config/team-connection.ts';
import { decodeTeamKey, encodeTeamKey } from './team-key.ts';

const PREFIX = 'vetted-join-2.';

const CodeUseSchema = z.strictObject({ id: z.uuid(), secret: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

const JoinCodeBodySchema = z.strictObject({
  teamId: z.uuid(),
  connection: TeamConnectionSchema,
  teamKey: z.string(),
  use: CodeUseSchema,
});

/** What spends a code in the store: its id, and the secret whose hash the store keeps. */
export type CodeUse = z.infer<typeof CodeUseSchema>;

export interface JoinCode {
  teamId: string;
  connection: TeamConnection;
  teamKey: Buffer;
  use: CodeUse;
}

export const newCodeUse = (): CodeUse => ({
  id: crypto.randomUUID(),
  secret: randomBytes(32).toString('base64url'),
});

/** What the store keeps of a code's secret (hex SHA-256): enough to check it, nothing to rebuild it. */
export const codeSecretHash = (use: CodeUse): string => createHash('sha256').update(use.secret).digest('hex');

export class JoinCodeError extends Error {
  override name = 'JoinCodeError';
}

export function encodeJoinCode(code: JoinCode): string {
  const body = {
    teamId: code.teamId,
    connection: code.connection,
    teamKey: encodeTeamKey(code.teamKey),
    use: code.use,
  };
  return PREFIX + Buffer.from(JSON.stringify(JoinCodeBodySchema.parse(body))).toString('base64url');
}

/** Whitespace (a code wrapped by a mail client) is ignored. Errors say what is wrong, never the code. */
export function decodeJoinCode(text: string): JoinCode {
  const compact = text.replace(/\s+/g, '');
  if (!compact.startsWith(PREFIX)) {
    throw new JoinCodeError(
      compact.startsWith('vetted-join-')
        ? 'This join code was made by another version of Vetted: ask your administrator for a new one.'
        : `This is not a Vetted join code (it starts with "${PREFIX}").`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(compact.slice(PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    throw new JoinCodeError('This join code is damaged (copied only in part?): ask for it again.');
  }
  const parsed = JoinCodeBodySchema.safeParse(json);
  if (!parsed.success) {
    throw new JoinCodeError('This join code is damaged (copied only in part?): ask for it again.');
  }
  let teamKey: Buffer;
  try {
    teamKey = decodeTeamKey(parsed.data.teamKey);
  } catch {
    throw new JoinCodeError('This join code is damaged (copied only in part?): ask for it again.');
  }
  return { teamId: parsed.data.teamId, connection: parsed.data.connection, teamKey, use: parsed.data.use };
}
