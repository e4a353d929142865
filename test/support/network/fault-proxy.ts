// A TCP relay on 127.0.0.1 that plays a bad network between a client and its server (this kernel has no
// netem). Its mode can change while connections are open; connections made afterwards follow the new mode.
// - pass: bytes go through as they come.
// - delay(ms): every chunk waits `ms` before it goes on, in each direction, in order.
// - black-hole: what a sleeping router or a NAT that forgot the connection leaves: connections open now and
//   new ones (accepted, as the far end's kernel would) carry nothing any more, in either direction. No FIN,
//   no RST: bytes are read and dropped, and neither end hears when the other closes. A connection once
//   black-holed stays dead after `pass` (its bytes are lost for good); new connections pass again.
// - cut: every connection is reset now, and each new one as soon as it is made, until another mode.
import net from 'node:net';

export type FaultMode = 'pass' | 'delay' | 'black-hole' | 'cut';

export interface FaultProxy {
  port: number;
  readonly mode: FaultMode;
  pass(): void;
  delay(ms: number): void;
  blackHole(): void;
  cut(): void;
  /** Connections relayed now (black-holed ones included until an end or the proxy closes them). */
  open(): number;
  /** Connections accepted since the proxy started. */
  accepted(): number;
  /** Bytes read from black-holed connections and dropped: proof the proxy had them and passed nothing. */
  swallowed(): number;
  close(): Promise<void>;
}

/** One connection: the client's socket and the one to the server. */
interface Pair {
  sockets: [net.Socket, net.Socket];
  swallowed: boolean;
}

/** `port`: where to listen (a port named before, for a store that comes back where the desk looks); any by default. */
export async function startFaultProxy(target: { host: string; port: number }, port = 0): Promise<FaultProxy> {
  let mode: FaultMode = 'pass';
  let delayMs = 0;
  let accepted = 0;
  let swallowed = 0;
  const pairs = new Set<Pair>();

  const reset = (pair: Pair) => {
    pairs.delete(pair);
    for (const socket of pair.sockets) if (!socket.destroyed) socket.resetAndDestroy();
  };

  const server = net.createServer((inbound) => {
    accepted += 1;
    inbound.on('error', () => undefined);
    if (mode === 'cut') {
      inbound.resetAndDestroy();
      return;
    }
    const outbound = net.connect(target.port, target.host);
    outbound.on('error', () => undefined);
    const pair: Pair = { sockets: [inbound, outbound], swallowed: mode === 'black-hole' };
    pairs.add(pair);
    relay(pair, inbound, outbound, () => delayMs);
    relay(pair, outbound, inbound, () => delayMs);
  });

  /** `from`'s bytes to `to`, each chunk after the delay of the moment, in the order they came. */
  function relay(pair: Pair, from: net.Socket, to: net.Socket, delay: () => number) {
    const queue: Array<{ at: number; chunk: Buffer | null }> = [];
    let timer: NodeJS.Timeout | undefined;
    const deliver = () => {
      timer = undefined;
      while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) {
        const { chunk } = queue.shift() as { chunk: Buffer | null };
        if (pair.swallowed || to.destroyed) continue;
        if (chunk) to.write(chunk);
        else to.end();
      }
      const head = queue[0];
      if (head) timer = setTimeout(deliver, Math.max(0, head.at - Date.now()));
    };
    const forward = (chunk: Buffer | null) => {
      if (pair.swallowed) {
        swallowed += chunk?.length ?? 0;
        return;
      }
      queue.push({ at: Date.now() + delay(), chunk });
      if (!timer) deliver();
    };
    from.on('data', forward);
    from.on('end', () => forward(null));
    from.on('close', (hadError) => {
      if (!pairs.has(pair) || pair.swallowed) return;
      // A reset is passed on as one; a clean end went through `forward`, and the pair is done once both
      // sides have closed.
      if (hadError) reset(pair);
      else if (pair.sockets.every((socket) => socket.destroyed)) pairs.delete(pair);
    });
  }

  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const proxy: FaultProxy = {
    port: (server.address() as net.AddressInfo).port,
    get mode() {
      return mode;
    },
    pass() {
      mode = 'pass';
      delayMs = 0;
    },
    delay(ms) {
      mode = 'delay';
      delayMs = ms;
    },
    blackHole() {
      mode = 'black-hole';
      for (const pair of pairs) pair.swallowed = true;
    },
    cut() {
      mode = 'cut';
      for (const pair of [...pairs]) reset(pair);
    },
    open: () => pairs.size,
    accepted: () => accepted,
    swallowed: () => swallowed,
    async close() {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        for (const socket of pair.sockets) socket.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}

/** `url` (a postgres:// or http:// one) with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: Pick<FaultProxy, 'port'>): string {
  const via = new URL(url);
  via.hostname = '127.0.0.1';
  via.port = String(proxy.port);
  return via.toString();
}
