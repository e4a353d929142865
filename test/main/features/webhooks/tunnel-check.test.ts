import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTunnel } from '#main/features/webhooks/tunnel-check.ts';
import { freePort, type ListenerRig, send, startListenerRig } from './helpers.ts';

/** A stand-in for cloudflared or ngrok: forwards every request as it is to the listener. */
function tunnelTo(port: number, rewritePath = (path: string) => path): Server {
  return createServer((req, res) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: rewritePath(req.url ?? '/'),
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
}

async function serve(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('tunnel check', () => {
  let rig: ListenerRig;
  const servers: Server[] = [];
  const check = (publicUrl: string | null, extra: { timeoutMs?: number; listenerUrl?: string | null } = {}) =>
    checkTunnel({
      publicUrl,
      listenerUrl:
        extra.listenerUrl === undefined ? `http://127.0.0.1:${rig.port}/webhooks` : extra.listenerUrl,
      probes: rig.probes,
      subscribed: true,
      inSandbox: false,
      ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
    });
  const started = async (server: Server) => {
    servers.push(server);
    return serve(server);
  };

  beforeAll(async () => {
    rig = await startListenerRig();
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await rig.close();
  });

  it('passes when a request through the public URL reaches the listener', async () => {
    const base = await started(tunnelTo(rig.port));
    const result = await check(`${base}/webhooks`);
    expect(result).toEqual({
      ok: true,
      reason: null,
      message: expect.stringContaining('reach Vetted'),
      subscribed: true,
    });
    // The probe is not a delivery and not a refusal.
    await rig.idle();
    expect(await rig.journal.events.list()).toEqual([]);
    expect(await rig.journal.rejections.list()).toEqual([]);
  });

  it('names a tunnel that reaches Vetted on another path', async () => {
    const base = await started(tunnelTo(rig.port));
    expect(await check(`${base}/hooks`)).toMatchObject({ ok: false, reason: 'wrong-path' });
  });

  it('names a public URL that answers without reaching Vetted', async () => {
    const base = await started(createServer((_req, res) => res.writeHead(502).end('Bad gateway')));
    const result = await check(`${base}/webhooks`);
    expect(result).toMatchObject({
      ok: false,
      reason: 'elsewhere',
      message: expect.stringMatching(/HTTP 502/),
    });
  });

  it('names an unreachable, a silent, an unset URL, and a listener that is down', async () => {
    const closed = await freePort();
    expect(await check(`http://127.0.0.1:${closed}/webhooks`)).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });
    const silent = await started(createServer(() => {}));
    expect(await check(`${silent}/webhooks`, { timeoutMs: 200 })).toMatchObject({
      ok: false,
      reason: 'timeout',
    });
    expect(await check(null)).toMatchObject({ ok: false, reason: 'not-set' });
    expect(await check('https://vetted.example.test/webhooks', { listenerUrl: null })).toMatchObject({
      ok: false,
      reason: 'listener-down',
    });
  });

  it('gives a made-up nonce no way around the signature check', async () => {
    const reply = await send(rig.port, { body: '{}', headers: { 'X-Vetted-Tunnel-Check': 'guessed' } });
    expect(reply.status).toBe(401);
  });
});
