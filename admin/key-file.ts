// The team key file `team init` writes: the administrator keeps it to make join codes (add-reviewer). It is
// the only copy outside the desks' vaults: lost, and the team's sealed data can never be read again.
import fs from 'node:fs';
import { decodeTeamKey, encodeTeamKey, isTeamKey } from '#main/team/team-key.ts';
import { TeamAdminError } from './errors.ts';

/** Writes the key, readable by its owner only; refuses to replace a file (it may hold another team's key). */
export function writeKeyFile(file: string, key: Buffer): void {
  try {
    fs.writeFileSync(file, `${encodeTeamKey(key)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new TeamAdminError(
        `${file} already exists: Vetted never overwrites a key file. Choose another path.`,
      );
    }
    throw new TeamAdminError(`The team key could not be written to ${file}: ${(error as Error).message}`);
  }
}

/**
 * Reads a key file and checks it is this team's key (`key_check` from team_meta). Without `keyCheck` (an
 * export checked offline, away from the store), only that it holds a team key.
 */
export function readKeyFile(file: string, keyCheck?: string): Buffer {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new TeamAdminError(`The team key file ${file} could not be read.`);
  }
  let key: Buffer;
  try {
    key = decodeTeamKey(text);
  } catch {
    throw new TeamAdminError(`${file} does not hold a team key (the file \`team init\` wrote).`);
  }
  if (keyCheck !== undefined && !isTeamKey(key, keyCheck)) {
    throw new TeamAdminError(`The key in ${file} is not this team's key (another team's file?).`);
  }
  return key;
}
