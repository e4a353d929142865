// Where a desk's team store is: kept in the settings file (never a secret: no password, no key), and carried
// by a join code (main/team/join-code.ts).
import { z } from 'zod';

const HostSchema = z.string().min(1).max(255);
/** The most of a CA's PEM a connection (and so a join code) carries. */
export const MAX_CA_CHARS = 64_000;
const PortSchema = z.number().int().min(1).max(65535);
const NodeSchema = z.strictObject({ host: HostSchema, port: PortSchema });

/** How to reach the team store. `ca`: the PEM of the CA that signed the server's certificate. */
export const TeamConnectionSchema = z.strictObject({
  host: HostSchema,
  port: PortSchema,
  database: z.string().min(1).max(63),
  user: z.string().min(1).max(63),
  /**
   * verify-full: encrypted, and the server's certificate must be signed by `ca` (or a system CA) for
   * `host`. disable: no TLS, only for a database on this machine or a private network.
   */
  sslmode: z.enum(['disable', 'verify-full']),
  ca: z.string().max(MAX_CA_CHARS).optional(),
  /**
   * Where work that needs a session of its own connects (LISTEN, the hub's listener lock) when `host:port`
   * is a pooler in transaction mode (PgBouncer): the PostgreSQL server itself. Absent: `host:port` too.
   * Same database, login and TLS settings (with verify-full, the server's certificate must name this host).
   */
  direct: NodeSchema.optional(),
  /**
   * The store's other nodes (a synchronous standby that may be promoted), tried after `host:port` in order:
   * every connection goes to the first node that accepts writes (libpq's `host=a,b` with
   * `target_session_attrs=read-write`; main/team/store/writable-node.ts). Absent: `host:port` alone.
   */
  standbys: z.array(NodeSchema).min(1).max(8).optional(),
});
export type TeamConnection = z.infer<typeof TeamConnectionSchema>;
