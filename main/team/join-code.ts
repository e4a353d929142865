// Join codes: what an administrator hands a reviewer (`team add-reviewer NAME`) so their desk can join the
// team: where the team store is, as whom to log in, the TLS settings, and the team data key. Never the
// password, which reaches the reviewer by another way and is typed once into Settings → Team.
// A join code is a secret (it holds the team key): it is kept in no file, and only in the vault once used.
import { z } from 'zod';
import { type TeamConnection, TeamConnectionSchema } from '../config/team-connection.ts';
import { decodeTeamKey, encodeTeamKey } from './team-key.ts';

const PREFIX = 'vetted-join-1.';

const JoinCodeBodySchema = z.strictObject({
  teamId: z.uuid(),
  connection: TeamConnectionSchema,
  teamKey: z.string(),
});

export interface JoinCode {
  teamId: string;
  connection: TeamConnection;
  teamKey: Buffer;
}

export class JoinCodeError extends Error {
  override name = 'JoinCodeError';
}

export function encodeJoinCode(code: JoinCode): string {
  const body = { teamId: code.teamId, connection: code.connection, teamKey: encodeTeamKey(code.teamKey) };
  return PREFIX + Buffer.from(JSON.stringify(JoinCodeBodySchema.parse(body))).toString('base64url');
}

/** Whitespace (a code wrapped by a mail client) is ignored. Errors say what is wrong, never the code. */
export function decodeJoinCode(text: string): JoinCode {
  const compact = text.replace(/\s+/g, '');
  if (!compact.startsWith(PREFIX)) {
    throw new JoinCodeError(
      compact.startsWith('vetted-join-')
        ? 'This join code was made by another version of Vetted: ask your administrator for a new one.'
        : 'This is not a Vetted join code (it starts with "vetted-join-1.").',
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
  return { teamId: parsed.data.teamId, connection: parsed.data.connection, teamKey };
}
