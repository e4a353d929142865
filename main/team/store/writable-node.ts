// Keeps a team store's connections on its writable node when it has several (a primary and a standby that
// may be promoted), as libpq does with `target_session_attrs=read-write`: the nodes are tried in order, each
// asked whether its session is read-only (`SHOW transaction_read_only`: on for a standby in recovery), and
// the first that is not is used. The answer is kept until a connection to that node fails or is dropped by
// the server (it died, or restarted as a standby): the next connection asks again.
//
// It works below node-postgres, as the socket its connections open (pg's `stream` setting): a pool, a
// dedicated LISTEN client and a probe all reach the writable node through the same settings, with no change
// to the code that makes them.
import net from 'node:net';
import type { StoreNode } from './store-nodes.ts';

/** Whether a node accepts writes now; throws if it cannot be reached. */
export type WritableProbe = (node: StoreNode) => Promise<boolean>;

export class NoWritableNodeError extends Error {
  override name = 'NoWritableNodeError';
  readonly code = 'ENOWRITABLE';
}

export interface WritableNode {
  /** The writable node, asked of the nodes in order unless known; rejects when none is writable now. */
  current(): Promise<StoreNode>;
  /** A connection to `node` failed or was dropped: ask again next time (if it is the one kept). */
  forget(node: StoreNode): void;
}

export function writableNode(nodes: readonly StoreNode[], probe: WritableProbe): WritableNode {
  let known: StoreNode | undefined;
  let asking: Promise<StoreNode> | undefined;
  const ask = async (): Promise<StoreNode> => {
    const refusals: string[] = [];
    for (const node of nodes) {
      try {
        if (await probe(node)) return node;
        refusals.push(`${node.host}:${node.port} is read-only (a standby)`);
      } catch (error) {
        refusals.push(`${node.host}:${node.port}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    throw new NoWritableNodeError(`No node of the team store accepts writes now: ${refusals.join('; ')}.`);
  };
  return {
    current() {
      if (known) return Promise.resolve(known);
      // One question at a time: a pool opening ten connections asks the nodes once.
      asking ??= ask().then(
        (node) => {
          asking = undefined;
          known = node;
          return node;
        },
        (error: unknown) => {
          asking = undefined;
          throw error;
        },
      );
      return asking;
    },
    forget(node) {
      if (known && known.host === node.host && known.port === node.port) known = undefined;
    },
  };
}

/**
 * pg's `stream` setting: a TCP socket that connects to the writable node, whatever host and port
 * node-postgres passes it. `socketNode` tells which node a socket reached (TLS checks the certificate
 * against that node's name).
 */
export function writableSocket(node: WritableNode) {
  return (): net.Socket => {
    const socket = new net.Socket();
    const connectTo = socket.connect.bind(socket) as (port: number, host: string) => net.Socket;
    let target: StoreNode | undefined;
    let endedHere = false;
    const end = socket.end.bind(socket) as () => net.Socket;
    socket.end = (() => {
      // Node ends a socket itself once the server has ended it: that end is the server's.
      if (!socket.readableEnded) endedHere = true;
      return end();
    }) as typeof socket.end;
    socket.connect = (() => {
      node.current().then(
        (writable) => {
          target = writable;
          nodeOfSocket.set(socket, writable);
          if (!socket.destroyed) connectTo(writable.port, writable.host);
        },
        (error: unknown) => socket.destroy(error as Error),
      );
      return socket;
    }) as typeof socket.connect;
    socket.on('error', () => {
      if (target) node.forget(target);
    });
    socket.on('close', () => {
      // Closed by the server, not by its client: the node went away or stopped being the primary.
      if (target && !endedHere) node.forget(target);
    });
    return socket;
  };
}

const nodeOfSocket = new WeakMap<net.Socket, StoreNode>();

/** The node a socket of `writableSocket` connected to (undefined before it knows). */
export const socketNode = (socket: net.Socket): StoreNode | undefined => nodeOfSocket.get(socket);
