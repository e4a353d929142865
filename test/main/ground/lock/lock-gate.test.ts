import { describe, expect, it } from 'vitest';
import { DeskError } from '#contract/errors.ts';
import {
  gateHandlers,
  LOCKED_CODE,
  LOCKED_NOTICE_BODY,
  lockedEvents,
  OPEN_WHILE_LOCKED,
} from '#main/ground/lock/lock-gate.ts';
import type { Handlers } from '#main/ground/serve.ts';

const call = { host: 'browser' } as const;

function handlers(): Handlers {
  return new Proxy({} as Handlers, {
    get: (_target, channel) => async () => `answer of ${String(channel)}`,
    ownKeys: () => [...OPEN_WHILE_LOCKED, 'customers.get', 'customers.reveal', 'queue.window'],
    getOwnPropertyDescriptor: () => ({ enumerable: true, configurable: true }),
  });
}

describe('channels while the desk is locked', () => {
  it('refuse with a typed locked error in words, except those holding no personal data', async () => {
    let locked = true;
    const gated = gateHandlers(handlers(), () => locked);
    const refusal = await Promise.resolve()
      .then(() => gated['customers.get']({ id: 'c1' } as never, call))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DeskError);
    expect(refusal).toMatchObject({ code: LOCKED_CODE, message: expect.stringContaining('locked') });
    await expect(Promise.resolve().then(() => gated['customers.reveal']({} as never, call))).rejects.toThrow(
      /locked/,
    );
    for (const channel of OPEN_WHILE_LOCKED) {
      expect(await gated[channel](undefined as never, call)).toBe(`answer of ${channel}`);
    }
    locked = false;
    expect(await gated['customers.get']({ id: 'c1' } as never, call)).toBe('answer of customers.get');
  });
});

describe('pushed events while the desk is locked', () => {
  it('reach the window only when they carry no personal data', () => {
    let locked = true;
    const heard: string[] = [];
    const listener = lockedEvents(
      (event) => heard.push(event),
      () => locked,
    );
    listener('customer.updated', { name: 'Ada Lovelace' });
    listener('service.status', { state: 'connected' });
    listener('lock.changed', { locked: true });
    locked = false;
    listener('customer.updated', { name: 'Ada Lovelace' });
    expect(heard).toEqual(['service.status', 'lock.changed', 'customer.updated']);
  });

  it('a notification while locked says a case changed, never whose', () => {
    const heard: unknown[] = [];
    const listener = lockedEvents(
      (_event, payload) => heard.push(payload),
      () => true,
    );
    listener('notification.show', {
      customerId: 'c1',
      status: 'verified',
      title: 'Customer verified',
      body: 'Ada',
    });
    expect(heard).toEqual([
      { customerId: '', status: 'verified', title: 'Customer verified', body: LOCKED_NOTICE_BODY },
    ]);
  });
});
