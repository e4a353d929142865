// The tests' bad network (test/support/network/fault-proxy.ts) between a client and an echo server.
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { until } from '../poll.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** An echo server that remembers what each of its connections received. */
async function echoServer() {
  const received: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const at = received.push('') - 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      received[at] += chunk.toString();
      socket.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { port: (server.address() as net.AddressInfo).port, received };
}

/** A client through `proxy` that collects what comes back, and how it ended. */
async function client(proxy: FaultProxy) {
  const socket = net.connect(proxy.port, '127.0.0.1');
  const seen = { data: '', error: '' as string, closed: false };
  socket.on('data', (chunk) => {
    seen.data += chunk.toString();
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    seen.error = error.code ?? error.message;
  });
  socket.on('close', () => {
    seen.closed = true;
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  cleanup.push(() => void socket.destroy());
  return { socket, seen };
}

async function setUp() {
  const echo = await echoServer();
  const proxy = await startFaultProxy({ host: '127.0.0.1', port: echo.port });
  cleanup.push(() => proxy.close());
  return { echo, proxy };
}

it('passes bytes both ways, and a delay slows each direction without reordering', async () => {
  const { proxy } = await setUp();
  const a = await client(proxy);
  a.socket.write('hello');
  await until(() => a.seen.data === 'hello', 'the echo');

  proxy.delay(150);
  const started = performance.now();
  for (const part of ['one,', 'two,', 'three']) a.socket.write(part);
  await until(() => a.seen.data === 'helloone,two,three', 'the delayed echo, in order');
  // There and back: at least one delay each way.
  expect(performance.now() - started).toBeGreaterThanOrEqual(2 * 150 - 5);

  proxy.pass();
  a.socket.write('!');
  await until(() => a.seen.data.endsWith('!'), 'the echo without delay');
  expect(proxy.mode).toBe('pass');
});

it('black-holed, open and new connections carry nothing and end nothing; new ones pass again after', async () => {
  const { echo, proxy } = await setUp();
  const open = await client(proxy);
  open.socket.write('before');
  await until(() => open.seen.data === 'before', 'the echo before');

  proxy.blackHole();
  open.socket.write('lost');
  const late = await client(proxy);
  late.socket.write('gone');
  await until(() => proxy.swallowed() === 'lostgone'.length, 'the proxy to have read and dropped both');
  expect(echo.received).toEqual(['before', '']);
  // The client closes: the server is never told (no FIN through a black hole).
  open.socket.end();
  await until(() => open.seen.closed, 'the client side to close');
  expect(proxy.open()).toBe(2);

  proxy.pass();
  const again = await client(proxy);
  again.socket.write('back');
  await until(() => again.seen.data === 'back', 'a new connection to pass');
  expect(proxy.accepted()).toBe(3);
});

it('cut resets every open connection and each new one until the mode changes', async () => {
  const { proxy } = await setUp();
  const open = await client(proxy);
  open.socket.write('x');
  await until(() => open.seen.data === 'x', 'the echo');

  proxy.cut();
  await until(() => open.seen.closed, 'the open connection to be reset');
  expect(open.seen.error).toBe('ECONNRESET');
  const refused = net.connect(proxy.port, '127.0.0.1');
  const ended = await new Promise<string>((resolve) => {
    refused.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? ''));
    refused.on('close', () => resolve('closed'));
  });
  expect(['ECONNRESET', 'closed']).toContain(ended);
  expect(proxy.open()).toBe(0);

  proxy.pass();
  const again = await client(proxy);
  again.socket.write('y');
  await until(() => again.seen.data === 'y', 'a new connection to pass');
});
