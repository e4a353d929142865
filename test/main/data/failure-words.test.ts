import { afterEach, describe, expect, it } from 'vitest';
import { toAppError } from '#main/compose/app-errors.ts';
import { connectionFailure, failureMessage, serviceFieldErrors } from '#main/data/failures.ts';
import { ServiceError, TokenError } from '#main/data/service/index.ts';
import { uploadFailure } from '#main/features/customers/upload-failure.ts';
import { needsNoProcessing } from '#main/features/webhooks/event-processor.ts';
import { createLogger } from '#main/ground/log/logger.ts';
import { testConnection } from '#main/sync/connection/connection-test.ts';
import { clientOf, type FakeService, reply, startFakeService } from './service/fake-service.ts';

let fake: FakeService | undefined;
afterEach(() => fake?.close());

const refusal = (status: number, code: string) => new ServiceError({ status, code, message: 'raw' });

describe('the real service’s refusals, in words', () => {
  it.each([
    ['InvalidAccountStatus', /account is not active/],
    ['invalidApplicationStatus', /application .* is not active/],
    ['InvalidScopes', /lack the permissions/],
  ])('401 %s', (code, words) => {
    expect(connectionFailure(refusal(401, code))).toMatchObject({
      reason: 'bad-credentials',
      message: words,
    });
    expect(connectionFailure(new TokenError(refusal(401, code))).message).toMatch(words);
  });

  it('500 RequestTimeout', () => {
    expect(connectionFailure(refusal(500, 'RequestTimeout')).message).toMatch(/took too long on its side/);
  });

  it('codes in any case, and the real service’s spelled-out ones', () => {
    expect(refusal(403, 'invalidResourceState').is('InvalidResourceState')).toBe(true);
    expect(uploadFailure(refusal(400, 'invalidFileType'), false)?.code).toBe('InvalidFileType');
    expect(uploadFailure(refusal(400, 'fileTooLarge'), false)?.code).toBe('FileTooLarge');
    expect(uploadFailure(refusal(400, 'maximumNumberOfResources'), false)?.code).toBe('MaxNumberOfResources');
  });

  it('a token failure is a sign-in failure, never the resource’s NotFound', () => {
    const error = new TokenError(refusal(404, 'notFound'));
    expect(toAppError(error)).toMatchObject({ code: 'SignInFailed', message: /No token endpoint answers/ });
  });

  it('"Test connection" says an inactive account in words', async () => {
    fake = await startFakeService({ tokenForm: 'real' });
    fake.route('POST', '/token', (_req, res) =>
      reply(res, 401, { code: 'InvalidAccountStatus', message: 'Invalid account status.' }),
    );
    const { client } = clientOf(fake, { tokenEndpoint: 'automatic' });
    const result = await testConnection(
      client,
      createLogger(() => {}),
    );
    await client.close();
    expect(result).toMatchObject({ ok: false, reason: 'bad-credentials', message: /account is not active/ });
  });
});

describe('a failure Vetted has no words for', () => {
  it('is written to the log, scrubbed, as its words promise; a known one is not', () => {
    const lines: string[] = [];
    const log = createLogger((line) => lines.push(line));
    log.addSecret('hook-secret-42');
    const words = failureMessage(new TypeError('bad name hook-secret-42'), log, 'listing the subscriptions');
    expect(words).toBe('Something unexpected went wrong; details are in the log.');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 'error',
      msg: 'listing the subscriptions failed unexpectedly',
      error: 'TypeError: bad name [redacted]',
    });
    expect(failureMessage(refusal(404, 'NotFound'), log, 'listing')).toMatch(/no such resource/);
    expect(lines).toHaveLength(1);
  });

  it('"Test connection" writes it to the log too', async () => {
    fake = await startFakeService();
    const { client } = clientOf(fake);
    const lines: string[] = [];
    const broken = {
      ...client,
      customers: { ...client.customers, list: () => Promise.reject(new RangeError('odd')) },
    };
    const result = await testConnection(
      broken,
      createLogger((line) => lines.push(line)),
    );
    await client.close();
    expect(result).toMatchObject({ ok: false, reason: 'unexpected', message: /details are in the log/ });
    expect(lines.map((line) => JSON.parse(line).error)).toEqual(['RangeError: odd']);
  });
});

describe('an odd id in what the service says', () => {
  it('reads a duplicate’s customer id from its link, decoded as the path carried it', () => {
    const error = new ServiceError({
      status: 400,
      code: 'ValidationError',
      message: 'Validation error(s) present.',
      fields: [
        {
          path: '/email',
          code: 'Duplicate',
          message: 'Email already in use.',
          aboutUrl: 'https://service.example/customers/C%201%2F%C3%BC',
        },
      ],
    });
    expect(serviceFieldErrors(error, 'create').duplicateOf).toBe('C 1/ü');
  });

  it('leaves in the log, unprocessed, an event about a customer id no request can carry', () => {
    const topic = 'customer_verified';
    expect(needsNoProcessing({ topic, customerId: 'a b/c' })).toBe(false);
    expect(needsNoProcessing({ topic, customerId: 'a\u0000b' })).toBe(true);
    expect(needsNoProcessing({ topic, customerId: '..' })).toBe(true);
  });
});
