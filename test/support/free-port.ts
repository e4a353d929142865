// A loopback port that was free a moment ago: for a server that must be named before it listens (a hub's
// public URL, a desk's listener across a restart, a PostgreSQL cluster). No vitest here: e2e specs use it.
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
