// A TCP relay on 127.0.0.1 that can go silent: `freeze` stops forwarding on every connection open now, in
// both directions, without closing anything, as a cut network or a NAT that forgot the connection does. The
// peers see no error and no end; connections made afterwards are relayed as usual (the network came back).
// `cut` is the loud kind: every connection reset and new ones refused until `mend` (a cable pulled, then back).
import net from 'node:net';

export interface FreezableProxy {
  port: number;
  freeze(): void;
  /** Resets every connection open now and refuses new ones (reset at once) until `mend`. */
  cut(): void;
  mend(): void;
  close(): Promise<void>;
}

/** `port`: where to listen (a port named before, for a store that comes back where the desk looks); any by default. */
export async function startFreezableProxy(
  target: { host: string; port: number },
  port = 0,
): Promise<FreezableProxy> {
  const live = new Set<[net.Socket, net.Socket]>();
  const all = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((inbound) => {
    if (refusing) {
      inbound.on('error', () => undefined);
      inbound.resetAndDestroy();
      return;
    }
    const outbound = net.connect(target.port, target.host);
    const pair: [net.Socket, net.Socket] = [inbound, outbound];
    live.add(pair);
    for (const socket of pair) {
      all.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        live.delete(pair);
        all.delete(socket);
        for (const other of pair) other.destroy();
      });
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze() {
      for (const [inbound, outbound] of live) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.pause();
      }
      live.clear();
    },
    cut() {
      refusing = true;
      for (const socket of all) socket.resetAndDestroy();
    },
    mend() {
      refusing = false;
    },
    async close() {
      for (const socket of all) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
