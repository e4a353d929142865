// Where a desk's team store is: kept in the settings file (never a secret: no password, no key), and carried
// by a join code (main/team/join-code.ts).
import { z } from 'zod';

/** How to reach the team store. `ca`: the PEM of the CA that signed the server's certificate. */
export const TeamConnectionSchema = z.strictObject({
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1).max(63),
  user: z.string().min(1).max(63),
  /**
   * verify-full: encrypted, and the server's certificate must be signed by `ca` (or a system CA) for
   * `host`. disable: no TLS, only for a database on this machine or a private network.
   */
  sslmode: z.enum(['disable', 'verify-full']),
  ca: z.string().max(64_000).optional(),
});
export type TeamConnection = z.infer<typeof TeamConnectionSchema>;
