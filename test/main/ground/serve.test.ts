import { describe, expect, it, vi } from 'vitest';
import { bridge, type Transport, unwrap } from '#contract/bridge.ts';
import { channelNames, invokeChannels } from '#contract/channels.ts';
import { DeskError, VettedError } from '#contract/errors.ts';
import { type Handlers, serve } from '#main/ground/serve.ts';

/** Only the app channels answer here: serve() is tested, not the features. */
const handlers = (overrides: Partial<Handlers> = {}): Handlers =>
  ({
    'app.info': () => ({ name: 'Vetted', version: '1.0.0', host: 'browser', serviceMode: 'sandbox' }),
    'app.ping': ({ nonce }: { nonce: string }) => ({ nonce, at: new Date(0).toISOString() }),
    ...overrides,
  }) as Handlers;

const trusted = (sender: string) => sender === 'ours';

describe('serve', () => {
  it('runs the handler for a trusted sender with valid input', async () => {
    const dispatch = serve(handlers(), { host: 'browser', isTrustedSender: trusted });
    expect(await dispatch('app.ping', 'ours', { nonce: 'a' })).toEqual({
      ok: true,
      value: { nonce: 'a', at: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('refuses an untrusted sender before looking at anything else', async () => {
    const ping = vi.fn();
    const dispatch = serve(handlers({ 'app.ping': ping }), { host: 'browser', isTrustedSender: trusted });
    expect(await dispatch('app.ping', 'theirs', { nonce: 'a' })).toMatchObject({
      ok: false,
      error: { code: 'Forbidden' },
    });
    expect(ping).not.toHaveBeenCalled();
  });

  it.each([['__proto__'], ['constructor'], ['app.nope'], [42]])(
    'refuses the unknown channel %s',
    async (channel) => {
      const dispatch = serve(handlers(), { host: 'browser', isTrustedSender: trusted });
      expect(await dispatch(channel, 'ours', undefined)).toMatchObject({
        ok: false,
        error: { code: 'UnknownChannel' },
      });
    },
  );

  it.each([
    [{ nonce: 1 }, '/nonce'],
    [{ nonce: '' }, '/nonce'],
    [{ nonce: 'x'.repeat(65) }, '/nonce'],
    [{ nonce: 'a', extra: 1 }, '/'],
    [null, '/'],
    ['text', '/'],
  ])('refuses the input %j with a field error at %s', async (input, path) => {
    const ping = vi.fn();
    const dispatch = serve(handlers({ 'app.ping': ping }), { host: 'browser', isTrustedSender: trusted });
    const result = await dispatch('app.ping', 'ours', input);
    expect(result).toMatchObject({ ok: false, error: { code: 'BadInput' } });
    if (!result.ok) expect(Object.keys(result.error.fields ?? {})).toContain(path);
    expect(ping).not.toHaveBeenCalled();
  });

  it('passes a DeskError through as code, message and fields', async () => {
    const dispatch = serve(
      handlers({
        'app.ping': () => {
          throw new DeskError('Nope', 'Not now.', { '/nonce': 'Pick another.' });
        },
      }),
      { host: 'browser', isTrustedSender: trusted },
    );
    expect(await dispatch('app.ping', 'ours', { nonce: 'a' })).toEqual({
      ok: false,
      error: { code: 'Nope', message: 'Not now.', fields: { '/nonce': 'Pick another.' } },
    });
  });

  it('hides an unexpected error behind a plain message and reports it on the main side', async () => {
    const onUnexpected = vi.fn();
    const dispatch = serve(
      handlers({
        'app.ping': () => {
          throw new Error('token=abc123 leaked at /secret/path.ts:12');
        },
      }),
      { host: 'browser', isTrustedSender: trusted, onUnexpected },
    );
    const result = await dispatch('app.ping', 'ours', { nonce: 'a' });
    expect(result).toMatchObject({ ok: false, error: { code: 'Internal' } });
    expect(JSON.stringify(result)).not.toMatch(/abc123|secret|\.ts/);
    expect(onUnexpected).toHaveBeenCalledWith('app.ping', expect.any(Error));
  });

  it('lets a host map its own error types', async () => {
    const dispatch = serve(
      handlers({
        'app.ping': () => {
          throw new RangeError('offline');
        },
      }),
      {
        host: 'browser',
        isTrustedSender: trusted,
        toAppError: (error) =>
          error instanceof RangeError ? { code: 'Offline', message: 'No network.' } : undefined,
      },
    );
    expect(await dispatch('app.ping', 'ours', { nonce: 'a' })).toEqual({
      ok: false,
      error: { code: 'Offline', message: 'No network.' },
    });
  });

  it('catches an output that breaks the contract when asked to', async () => {
    const broken = handlers({ 'app.ping': () => ({ nonce: 'a', at: 'yesterday' }) });
    const strict = serve(broken, { host: 'browser', isTrustedSender: trusted, validateOutput: true });
    expect(await strict('app.ping', 'ours', { nonce: 'a' })).toMatchObject({
      ok: false,
      error: { code: 'Internal' },
    });
  });
});

describe('bridge', () => {
  const transport = (invoke: Transport['invoke']): Transport => ({ invoke, subscribe: () => () => {} });

  it('has one function per channel, grouped by namespace, frozen', () => {
    const vetted = bridge(transport(async () => ({ ok: true, value: null })));
    for (const channel of channelNames) {
      const [namespace, method] = channel.split('.') as [string, string];
      expect(typeof (vetted as unknown as Record<string, Record<string, unknown>>)[namespace]?.[method]).toBe(
        'function',
      );
    }
    expect(Object.isFrozen(vetted)).toBe(true);
  });

  it('turns a lost main process into a Disconnected result, and garbage into Internal', async () => {
    const lost = bridge(
      transport(async () => {
        throw new Error('socket hang up');
      }),
    );
    expect(await lost.app.info()).toMatchObject({ ok: false, error: { code: 'Disconnected' } });
    const garbage = bridge(transport(async () => ({ hello: 'world' })));
    expect(await garbage.app.info()).toMatchObject({ ok: false, error: { code: 'Internal' } });
  });

  it('unwraps values and throws VettedError with the fields', async () => {
    const api = unwrap(
      bridge(
        transport(async (channel) =>
          channel === 'app.ping'
            ? { ok: false, error: { code: 'BadInput', message: 'Bad.', fields: { '/nonce': 'Too long' } } }
            : { ok: true, value: 'fine' },
        ),
      ),
    );
    expect(await api.app.info()).toBe('fine');
    const error = await api.app.ping({ nonce: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VettedError);
    expect(error).toMatchObject({ code: 'BadInput', fields: { '/nonce': 'Too long' } });
  });
});

describe('the contract', () => {
  it('names every channel namespace.method and gives each an input and an output schema', () => {
    for (const [name, spec] of Object.entries(invokeChannels)) {
      expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
      expect(spec.input).toBeDefined();
      expect(spec.output).toBeDefined();
    }
  });
});

describe('ids the service names', () => {
  const channels = ['webhooks.delete', 'webhooks.setPaused'] as const;
  const input = (channel: (typeof channels)[number], id: string) =>
    channel === 'webhooks.delete' ? { id } : { id, paused: true };

  it('takes any id the service may give (opaque text), and refuses only what no path can carry, naming it', () => {
    for (const channel of channels) {
      const schema = invokeChannels[channel].input;
      for (const good of [
        '5f0e1c8a-3b1f-4c7e-9a51-2d7c0f1e9b44',
        'a/b',
        '😀',
        '%2e%2e%2f',
        '../x',
        'https://evil.example/webhook-subscriptions/1',
      ]) {
        expect(schema.safeParse(input(channel, good)).success, `${channel} ${good}`).toBe(true);
      }
      for (const [bad, why] of [
        ['a\u0000b', /"a\\u0000b": it holds control characters/],
        ['', /"": it is empty/],
        ['..', /"\.\.": a web address cannot name it/],
        ['x'.repeat(256), /longer than 255 characters/],
        ['\ud800', /broken character/],
      ] as const) {
        const parsed = schema.safeParse(input(channel, bad));
        expect(parsed.success, `${channel} ${JSON.stringify(bad)}`).toBe(false);
        expect(parsed.error?.issues[0]?.message).toMatch(/^Vetted cannot use the subscription id /);
        expect(parsed.error?.issues[0]?.message).toMatch(why);
      }
    }
  });
});
