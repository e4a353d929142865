import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WEBHOOK_PATH } from '#main/features/webhooks/listener.ts';

/**
 * The least any listener must do to answer a delivery 200 only once it is durable, as the throwaway
 * prototypes did: the signature checked over the raw bytes (a key object made once), the body parsed for its
 * id, appended to a pre-allocated zero-filled file, one fdatasync per group (the group forms while the last
 * one syncs), then 200. Nothing else: no journal, no dedupe, no processing. bench/webhooks.ts samples it beside
 * bare node:http and Vetted, so the table shows what this machine allows, not only what Vetted reaches.
 */
export async function startDurableFloor(
  secret: string,
  dir: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const file = path.join(dir, 'durable-floor.log');
  const fd = fs.openSync(file, 'w+', 0o600);
  const SIZE = 64 * 1024 * 1024;
  const zeros = Buffer.alloc(1024 * 1024);
  for (let at = 0; at < SIZE; at += zeros.length) fs.writeSync(fd, zeros, 0, zeros.length, at);
  fs.fsyncSync(fd);
  let used = 0;
  let group: Array<{ body: Buffer; res: ServerResponse }> = [];
  let scheduled = false;

  const commit = () => {
    scheduled = false;
    const committing = group;
    group = [];
    const bytes = Buffer.concat(committing.map((item) => item.body));
    if (used + bytes.length > SIZE) used = 0; // written over: nothing here is ever read back
    fs.writeSync(fd, bytes, 0, bytes.length, used);
    fs.fdatasyncSync(fd);
    used += bytes.length;
    for (const { res } of committing) res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    schedule();
  };
  const schedule = () => {
    if (scheduled || group.length === 0) return;
    scheduled = true;
    setImmediate(commit);
  };

  const server = signedDeliveries(secret, (body, res) => {
    group.push({ body, res });
    schedule();
  });
  return listenOnLoopback(server, () => fs.closeSync(fd));
}

/**
 * The least a listener does before it may record a delivery: the body read whole, the signature checked over
 * the raw bytes (a key object made once), the body parsed for its id; then `accept` records it and answers.
 */
export function signedDeliveries(
  secret: string,
  accept: (body: Buffer, res: ServerResponse, id: string) => void,
): Server {
  const key = createSecretKey(Buffer.from(secret));
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const signature = Buffer.from(String(req.headers['x-request-signature-sha-256'] ?? ''), 'hex');
      const expected = createHmac('sha256', key).update(body).digest();
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
        res.writeHead(401).end();
        return;
      }
      const { id } = JSON.parse(body.toString()) as { id?: unknown };
      if (typeof id !== 'string') {
        res.writeHead(400).end();
        return;
      }
      accept(body, res, id);
    });
  });
}

/** A listener on 127.0.0.1 at the webhook path, closed with its connections; `closed` runs after. */
export async function listenOnLoopback(
  server: Server,
  closed: () => void = () => {},
): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${WEBHOOK_PATH}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          closed();
          resolve();
        });
      }),
  };
}
