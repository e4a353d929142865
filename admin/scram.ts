// A SCRAM-SHA-256 verifier made here, so `CREATE ROLE … PASSWORD` sends the server what it stores and never the
// password itself: a statement log on the server (log_statement = 'ddl') then holds nothing to log in with.
// The format is PostgreSQL's (RFC 5802 / 7677): SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>.
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';

const ITERATIONS = 4096;

export function scramVerifier(password: string, salt: Buffer = randomBytes(16)): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, ITERATIONS, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  const b64 = (bytes: Buffer) => bytes.toString('base64');
  return `SCRAM-SHA-256$${ITERATIONS}:${b64(salt)}$${b64(storedKey)}:${b64(serverKey)}`;
}

/** A reviewer's one-time password: 24 random bytes, 32 characters of base64url. */
export function newReviewerPassword(): string {
  return randomBytes(24).toString('base64url');
}
