import { afterEach, describe, expect, it } from 'vitest';
import { toAppError } from '../../main/compose/app-errors.ts';
import { testConnection } from '../../main/connection/connection-test.ts';
import { connectionFailure, uploadFailure } from '../../main/failures.ts';
import { ServiceError, TokenError } from '../../main/service/index.ts';
import { clientOf, type FakeService, reply, startFakeService } from './fake-service.ts';

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
    const result = await testConnection(client);
    await client.close();
    expect(result).toMatchObject({ ok: false, reason: 'bad-credentials', message: /account is not active/ });
  });
});
