import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSignedBy, signBody } from '#main/features/webhooks/signature.ts';
import { until } from '#test/support/poll.ts';
import {
  deliver,
  eventBody,
  heldDelivery,
  type ListenerRig,
  SECRET,
  send,
  startListenerRig,
} from './helpers.ts';

const MiB = 1024 * 1024;

/** For each kind of request: what the listener answers, and what ends up in the journal. */
describe('webhook listener', () => {
  let rig: ListenerRig;
  beforeEach(async () => {
    rig = await startListenerRig();
  });
  afterEach(async () => {
    await rig.close();
  });

  // Durable before the 200 (the inbox log; inbox-crash.test.ts kills the process to prove it), in the
  // events table once written behind the answers: what these tests read.
  const recorded = async () => {
    await rig.idle();
    return await rig.journal.events.list({ limit: 1000 });
  };
  const rejections = async () => {
    await rig.idle();
    return await rig.journal.rejections.list();
  };

  it('records a valid delivery before answering 200, then reconciles its customer', async () => {
    const customerId = randomUUID();
    const body = eventBody({ customerId });
    const id = JSON.parse(body).id as string;
    const reply = await deliver(rig.port, body);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ received: id, duplicate: false });
    await rig.idle();
    expect(await rig.journal.events.get(id)).toMatchObject({
      topic: 'customer_verified',
      customerId,
      signatureVerified: true,
      duplicatesSeen: 0,
    });
    expect(rig.refreshed).toEqual([customerId]);
    expect((await rig.journal.events.get(id))?.processedAt).not.toBeNull();
    expect(await rejections()).toEqual([]);
  });

  it('refuses a tampered body with 401 and records nothing but the refusal', async () => {
    const body = eventBody();
    const tampered = body.replace('customer_verified', 'customer_suspended');
    const reply = await send(rig.port, {
      body: tampered,
      headers: { 'X-Request-Signature-SHA-256': signBody(body, SECRET) },
    });
    expect(reply.status).toBe(401);
    expect(await recorded()).toEqual([]);
    const [rejection] = await rejections();
    expect(rejection).toMatchObject({
      remoteAddress: '127.0.0.1',
      status: 401,
      reason: 'signature-mismatch',
    });
    expect(Date.parse(rejection!.at)).not.toBeNaN();
  });

  it('refuses a body signed with another secret', async () => {
    const reply = await deliver(rig.port, eventBody(), 'some-other-subscription-secret');
    expect(reply.status).toBe(401);
    expect(await recorded()).toEqual([]);
    expect(await rejections()).toMatchObject([{ status: 401, reason: 'signature-mismatch' }]);
  });

  it('refuses a delivery without a signature header', async () => {
    const reply = await send(rig.port, { body: eventBody() });
    expect(reply.status).toBe(401);
    expect(await recorded()).toEqual([]);
    expect(await rejections()).toMatchObject([{ status: 401, reason: 'signature-missing' }]);
  });

  it('reads the signature header whatever the case of its name', async () => {
    const upper = await deliver(rig.port, eventBody(), SECRET, 'X-REQUEST-SIGNATURE-SHA-256');
    const lower = await deliver(rig.port, eventBody(), SECRET, 'x-request-signature-sha-256');
    expect([upper.status, lower.status]).toEqual([200, 200]);
    expect(await recorded()).toHaveLength(2);
  });

  it('takes a body of exactly 1 MiB and refuses 1 MiB + 1 byte with 413', async () => {
    const event = JSON.parse(eventBody()) as Record<string, unknown>;
    const bare = JSON.stringify({ ...event, padding: '' });
    const exact = JSON.stringify({ ...event, padding: 'x'.repeat(MiB - Buffer.byteLength(bare)) });
    expect(Buffer.byteLength(exact)).toBe(MiB);
    expect((await deliver(rig.port, exact)).status).toBe(200);

    const over = JSON.stringify({
      ...JSON.parse(eventBody()),
      padding: 'x'.repeat(MiB + 1 - Buffer.byteLength(bare)),
    });
    expect(Buffer.byteLength(over)).toBe(MiB + 1);
    expect((await deliver(rig.port, over)).status).toBe(413);
    expect((await recorded()).map((e) => e.id)).toEqual([event.id]);
    expect(await rejections()).toMatchObject([{ status: 413, reason: 'too-large' }]);
  });

  it('cuts off a sender whose body does not arrive in time (408)', async () => {
    await rig.close();
    rig = await startListenerRig({ bodyTimeoutMs: 300 }); // the rest of this body never comes
    const body = eventBody();
    const reply = await send(rig.port, {
      body,
      partial: 10,
      headers: { 'X-Request-Signature-SHA-256': signBody(body, SECRET) },
    });
    expect(reply.status).toBe(408);
    expect(await recorded()).toEqual([]);
    expect(await rejections()).toMatchObject([{ status: 408, reason: 'too-slow' }]);
  });

  it('answers 400 to malformed JSON with a valid signature, recording nothing', async () => {
    const reply = await deliver(rig.port, '{"id": "not closed"');
    expect(reply.status).toBe(400);
    const notAnEvent = await deliver(rig.port, JSON.stringify({ hello: 'world' }));
    expect(notAnEvent.status).toBe(400);
    expect(await recorded()).toEqual([]);
    // Authentic, so not a security matter.
    expect(await rejections()).toEqual([]);
  });

  it('refuses other methods (405) and other paths (404)', async () => {
    const body = eventBody();
    const headers = { 'X-Request-Signature-SHA-256': signBody(body, SECRET) };
    const get = await send(rig.port, { method: 'GET', headers });
    expect(get.status).toBe(405);
    const put = await send(rig.port, { method: 'PUT', body, headers });
    expect(put.status).toBe(405);
    const elsewhere = await send(rig.port, { path: '/webhook', body, headers });
    expect(elsewhere.status).toBe(404);
    const root = await send(rig.port, { path: '/', body, headers });
    expect(root.status).toBe(404);
    expect(await recorded()).toEqual([]);
    expect((await rejections()).map((r) => [r.status, r.reason])).toEqual([
      [404, 'path'],
      [404, 'path'],
      [405, 'method'],
      [405, 'method'],
    ]);
  });

  it('answers 200 to the same event twice, storing it once and counting the duplicate', async () => {
    const body = eventBody();
    const id = JSON.parse(body).id as string;
    const first = await deliver(rig.port, body);
    // A redelivery comes when its 200 was lost, long after the event reached the table.
    await rig.idle();
    const second = await deliver(rig.port, body);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(JSON.parse(second.body)).toEqual({ received: id, duplicate: true });
    expect(await recorded()).toHaveLength(1);
    expect((await rig.journal.events.get(id))?.duplicatesSeen).toBe(1);
    await rig.idle();
    expect(rig.refreshed).toHaveLength(1);
  });

  it('handles 10 concurrent deliveries, none waiting behind another', async () => {
    const bodies = Array.from({ length: 10 }, () => eventBody());
    const replies = await Promise.all(bodies.map((body) => deliver(rig.port, body)));
    expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(200));
    expect(await recorded()).toHaveLength(10);
    for (const body of bodies) expect(await rig.journal.events.get(JSON.parse(body).id)).toBeDefined();
  });

  it('answers a genuine delivery while 200 slow senders hold connections: the idlest is shed', async () => {
    // Slots for 32, header timeouts far away: only shedding can make room, not a timer.
    const crowded = await startListenerRig({ maxConnections: 32, headersTimeoutMs: 60_000 });
    const slow: Socket[] = [];
    const closedByListener: number[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        const socket = connect(crowded.port, '127.0.0.1');
        socket.on('error', () => {});
        socket.once('close', () => closedByListener.push(i));
        // A request head that never ends: what a slowloris sender keeps trickling.
        socket.write('POST /webhooks HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        slow.push(socket);
      }
      await until(() => closedByListener.length === 200 - 32, '168 slow connections shed');
      // The oldest went first: the 32 most recent are the ones still open.
      expect([...closedByListener].sort((a, b) => a - b)).toEqual(Array.from({ length: 168 }, (_, i) => i));

      const body = eventBody();
      const reply = await deliver(crowded.port, body);
      expect(reply.status).toBe(200);
      await crowded.idle();
      expect(await crowded.journal.events.get(JSON.parse(body).id)).toBeDefined();
      const shed = (await crowded.journal.rejections.list({ limit: 1000 })).filter(
        (r) => r.reason === 'shed-idle-connection',
      );
      expect(shed.length).toBeGreaterThanOrEqual(168);
    } finally {
      for (const socket of slow) socket.destroy();
      await crowded.close();
    }
  });

  it('lets a delivery through while nine others are still sending their bodies', async () => {
    const patient = await startListenerRig();
    try {
      const held = Array.from({ length: 9 }, () => heldDelivery(patient.port, eventBody()));
      const meanwhile = await deliver(patient.port, eventBody());
      expect(meanwhile.status).toBe(200);
      await patient.idle();
      expect(await patient.journal.events.list()).toHaveLength(1);
      const replies = await Promise.all(held.map((delivery) => delivery.finish()));
      expect(replies.map((reply) => reply.status)).toEqual(Array(9).fill(200));
      await patient.idle();
      expect(await patient.journal.events.list()).toHaveLength(10);
    } finally {
      await patient.close();
    }
  });
});

describe('signature check', () => {
  it('accepts only 64 hex digits that are the HMAC of these exact bytes', async () => {
    const body = Buffer.from('{"id":"e"}');
    const signature = signBody(body, SECRET);
    expect(isSignedBy(body, signature, ['other', SECRET])).toBe(true);
    expect(isSignedBy(body, signature.toUpperCase(), [SECRET])).toBe(true);
    expect(isSignedBy(body, signature.slice(0, 63), [SECRET])).toBe(false);
    expect(isSignedBy(body, `${signature}00`, [SECRET])).toBe(false);
    expect(isSignedBy(body, `${signature.slice(0, 62)}zz`, [SECRET])).toBe(false);
    expect(isSignedBy(body, undefined, [SECRET])).toBe(false);
    expect(isSignedBy(body, signature, [])).toBe(false);
    expect(isSignedBy(Buffer.from('{"id": "e"}'), signature, [SECRET])).toBe(false);
  });
});
