// A team store on several nodes (libpq's host=a,b with target_session_attrs=read-write): the lists parsed,
// the nodes tried in order, a read-only node (a standby) or an unreachable one skipped, the answer kept until
// a connection to it fails. The real failover is test/main/team/desks/store-failover.test.ts.
import net from 'node:net';
import { expect, test } from 'vitest';
import {
  nodesText,
  parseHostList,
  parseStoreUrl,
  type StoreNode,
  StoreNodesError,
  storeNodes,
  withNodes,
} from '#main/team/store/store-nodes.ts';
import { writableNode, writableSocket } from '#main/team/store/writable-node.ts';

const A = { host: 'a.example.test', port: 5432 };
const B = { host: 'b.example.test', port: 5433 };

test('libpq host and port lists: one port for all, one each, or the default', () => {
  expect(parseHostList('a.example.test,b.example.test', '5432,5433', 5432)).toEqual([A, B]);
  expect(parseHostList('a.example.test, b.example.test', '6000', 5432)).toEqual([
    { host: 'a.example.test', port: 6000 },
    { host: 'b.example.test', port: 6000 },
  ]);
  expect(parseHostList('a.example.test', undefined, 5432)).toEqual([A]);
  expect(() => parseHostList('a,b,c', '1,2', 5432, '--host')).toThrow(/3 hosts but 2 ports/);
  expect(() => parseHostList('a,,b', undefined, 5432)).toThrow(StoreNodesError);
  expect(() => parseHostList('a', 'x', 5432, '--port')).toThrow(/--port: "x" is not a port number/);
});

test('a URL lists several host:port; target_session_attrs may only ask for the writable node', () => {
  const url = parseStoreUrl(
    'postgres://alice:p%40ss@a.example.test:5432,b.example.test:5433/vetted?target_session_attrs=read-write',
  );
  expect(url).toMatchObject({ nodes: [A, B], database: 'vetted', user: 'alice', password: 'p@ss' });
  expect(parseStoreUrl('postgresql://[::1]:6000,10.0.0.2/db').nodes).toEqual([
    { host: '::1', port: 6000 },
    { host: '10.0.0.2', port: 5432 },
  ]);
  expect(parseStoreUrl('postgres://h/').database).toBe('');
  expect(() => parseStoreUrl('postgres://a,b/db?target_session_attrs=read-only')).toThrow(
    /only be read-write/,
  );
  expect(() => parseStoreUrl('mysql://a/db')).toThrow(StoreNodesError);
  expect(() => parseStoreUrl('postgres://a:99999/db')).toThrow(/not a host:port/);
});

test('a connection’s nodes are host:port then its standbys, and back', () => {
  const fields = withNodes([A, B]);
  expect(fields).toEqual({ ...A, standbys: [B] });
  expect(storeNodes(fields)).toEqual([A, B]);
  expect(withNodes([A])).toEqual(A);
  expect(nodesText([A, B])).toBe('a.example.test:5432,b.example.test:5433');
});

/** A probe over a map of nodes: true writable, false read-only, absent unreachable. Counts its questions. */
function probeOf(state: Map<string, boolean>) {
  const asked: string[] = [];
  const probe = async (node: StoreNode) => {
    asked.push(node.host);
    const writable = state.get(node.host);
    if (writable === undefined)
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    return writable;
  };
  return { probe, asked };
}

test('the first writable node in order is used: a standby listed first is skipped', async () => {
  const { probe, asked } = probeOf(
    new Map([
      [A.host, false],
      [B.host, true],
    ]),
  );
  const node = writableNode([A, B], probe);
  expect(await node.current()).toEqual(B);
  expect(asked).toEqual([A.host, B.host]);
});

test('the answer is kept (asked once for concurrent connections) until a connection to it fails', async () => {
  const state = new Map([
    [A.host, true],
    [B.host, false],
  ]);
  const { probe, asked } = probeOf(state);
  const node = writableNode([A, B], probe);
  expect(await Promise.all([node.current(), node.current(), node.current()])).toEqual([A, A, A]);
  expect(asked).toEqual([A.host]);
  // Forgetting another node keeps the answer.
  node.forget(B);
  expect(await node.current()).toEqual(A);
  expect(asked).toEqual([A.host]);
  // The primary dies, the standby is promoted: after a failed connection the nodes are asked again.
  state.delete(A.host);
  state.set(B.host, true);
  node.forget(A);
  expect(await node.current()).toEqual(B);
  expect(asked).toEqual([A.host, A.host, B.host]);
});

test('while no node accepts writes (the primary dead, the standby not yet promoted) it says so, then retries', async () => {
  const state = new Map([[B.host, false]]);
  const { probe } = probeOf(state);
  const node = writableNode([A, B], probe);
  await expect(node.current()).rejects.toThrow(
    /No node of the team store accepts writes now: a.example.test:5432: connect ECONNREFUSED; b.example.test:5433 is read-only/,
  );
  state.set(B.host, true);
  expect(await node.current()).toEqual(B);
});

/** A loopback server that counts connections and can close them all (the node going away). */
async function listener() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const node = { host: '127.0.0.1', port: (server.address() as net.AddressInfo).port };
  return {
    node,
    sockets,
    dropAll: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('the socket connects to the writable node whatever pg asks for; a drop by the server makes it ask again', async () => {
  const server = await listener();
  try {
    let asked = 0;
    const node = writableNode([A, server.node], async (candidate) => {
      asked++;
      return candidate.port === server.node.port;
    });
    const socket = writableSocket(node)();
    const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.connect(1, 'ignored.example.test');
    await connected;
    expect(socket.remotePort).toBe(server.node.port);
    expect(asked).toBe(2);
    // Ended by its client: the node is still the one.
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.end();
    await closed;
    await node.current();
    expect(asked).toBe(2);
    // Dropped by the server: asked again.
    const second = writableSocket(node)();
    const up = new Promise<void>((resolve) => second.once('connect', () => resolve()));
    second.connect(1, 'ignored.example.test');
    await up;
    const dropped = new Promise((resolve) => second.once('close', resolve));
    server.dropAll();
    await dropped;
    await node.current();
    expect(asked).toBe(4);
  } finally {
    await server.close();
  }
});

test('when no node is writable the socket fails with the reason, as a connection error', async () => {
  const node = writableNode([A], async () => false);
  const socket = writableSocket(node)();
  const failed = new Promise<Error>((resolve) => socket.once('error', resolve));
  socket.connect(1, 'ignored.example.test');
  expect((await failed).message).toMatch(/a.example.test:5432 is read-only/);
});
