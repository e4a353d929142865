import { errors as undiciErrors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classifyNetworkError,
  codeForStatus,
  errorFromResponse,
  NetworkError,
  ServiceError,
} from '#main/data/service/errors.ts';
import { clientOf, type FakeService, HAL, reply, startFakeService } from './fake-service.ts';

interface Shape {
  status: number;
  body: unknown;
  code: string;
  message: string;
  retryable?: boolean;
}

const msg = (code: string, message: string) => ({ code, message });

/** Every error of service-facts.md §2, §3 and §5, as the service sends it. */
const shapes: Shape[] = [
  {
    status: 400,
    body: msg('BadRequest', 'The request body contains bad syntax or is incomplete.'),
    code: 'BadRequest',
    message: 'The request body contains bad syntax or is incomplete.',
  },
  {
    status: 401,
    body: msg('InvalidCredentials', 'Missing or invalid Authorization header.'),
    code: 'InvalidCredentials',
    message: 'Missing or invalid Authorization header.',
  },
  {
    status: 403,
    body: msg('Forbidden', 'The supplied credentials are not authorized for this resource.'),
    code: 'Forbidden',
    message: 'The supplied credentials are not authorized for this resource.',
  },
  {
    status: 403,
    body: msg('InvalidResourceState', 'Resource cannot be modified.'),
    code: 'InvalidResourceState',
    message: 'Resource cannot be modified.',
  },
  {
    status: 404,
    body: msg('NotFound', 'Customer not found.'),
    code: 'NotFound',
    message: 'Customer not found.',
  },
  {
    status: 404,
    body: msg('notFound', 'Webhook subscription not found.'),
    code: 'notFound',
    message: 'Webhook subscription not found.',
  },
  {
    status: 405,
    body: msg('MethodNotAllowed', 'Method not allowed.'),
    code: 'MethodNotAllowed',
    message: 'Method not allowed.',
  },
  {
    status: 406,
    body: msg('InvalidVersion', 'Missing or invalid API version.'),
    code: 'InvalidVersion',
    message: 'Missing or invalid API version.',
  },
  {
    status: 409,
    body: msg('Conflict', 'The request is still being processed.'),
    code: 'Conflict',
    message: 'The request is still being processed.',
    retryable: true,
  },
  {
    status: 413,
    body: msg('FileTooLarge', 'Document requests are limited to 10 MiB.'),
    code: 'FileTooLarge',
    message: 'Document requests are limited to 10 MiB.',
  },
  {
    status: 415,
    body: msg('UnsupportedRequestContentType', 'Use multipart/form-data.'),
    code: 'UnsupportedRequestContentType',
    message: 'Use multipart/form-data.',
  },
  {
    status: 400,
    body: msg('InvalidFileType', 'File type not supported.'),
    code: 'InvalidFileType',
    message: 'File type not supported.',
  },
  {
    status: 400,
    body: msg('MaxNumberOfResources', 'Too many documents pending review.'),
    code: 'MaxNumberOfResources',
    message: 'Too many documents pending review.',
  },
  {
    status: 429,
    body: msg('TooManyRequests', 'Too many requests.'),
    code: 'TooManyRequests',
    message: 'Too many requests.',
    retryable: true,
  },
  {
    status: 500,
    body: msg('ServerError', 'A server error occurred. Error ID: 7d1f.'),
    code: 'ServerError',
    message: 'A server error occurred. Error ID: 7d1f.',
    retryable: true,
  },
  {
    status: 401,
    body: { error: 'invalid_client' },
    code: 'invalid_client',
    message: 'The service rejected the client id or client secret.',
  },
  {
    status: 400,
    body: { error: 'unsupported_grant_type' },
    code: 'unsupported_grant_type',
    message: 'The service does not support the client credentials grant.',
  },
  {
    status: 400,
    body: { error: 'invalid_request' },
    code: 'invalid_request',
    message: 'The service rejected the token request as malformed.',
  },
  {
    status: 400,
    body: { error: 'invalid_request', error_description: 'grant_type is missing' },
    code: 'invalid_request',
    message: 'grant_type is missing',
  },
  // Anything else: carried through, or named after the status.
  {
    status: 418,
    body: msg('SomethingNew', 'A code nobody knows yet.'),
    code: 'SomethingNew',
    message: 'A code nobody knows yet.',
  },
  {
    status: 502,
    body: undefined,
    code: 'BadGateway',
    message: 'The service answered 502 Bad Gateway.',
    retryable: true,
  },
  {
    status: 404,
    body: ['not', 'an', 'object'],
    code: 'NotFound',
    message: 'The service answered 404 Not Found.',
  },
  {
    status: 400,
    body: { code: 42, message: { nested: true } },
    code: 'BadRequest',
    message: 'The service answered 400 Bad Request.',
  },
];

describe('errorFromResponse', () => {
  it.each(shapes)('maps $status $code', ({ status, body, code, message, retryable = false }) => {
    const error = errorFromResponse({ status, body, requestId: 'rid-1' });
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status, code, message, requestId: 'rid-1', retryable, fields: [] });
    expect(error.is(code.toUpperCase())).toBe(true);
  });

  it('maps a ValidationError with every field error and its JSON pointer', () => {
    const error = errorFromResponse({
      status: 400,
      body: {
        code: 'ValidationError',
        message: 'Validation error(s) present. See embedded errors list for more details.',
        _embedded: {
          errors: [
            { code: 'InvalidFormat', message: 'Email invalid.', path: '/email', _links: {} },
            { code: 'Required', message: 'FirstName required.', path: '/firstName', _links: {} },
            {
              code: 'NotAllowed',
              message: 'DateOfBirth value not allowed.',
              path: '/dateOfBirth',
              _links: {},
            },
            { code: 'SomeFutureCode', path: '/tin' },
            'not an error object',
          ],
        },
      },
    });
    expect(error.is('validationerror')).toBe(true);
    expect(error.fields).toEqual([
      { path: '/email', code: 'InvalidFormat', message: 'Email invalid.' },
      { path: '/firstName', code: 'Required', message: 'FirstName required.' },
      { path: '/dateOfBirth', code: 'NotAllowed', message: 'DateOfBirth value not allowed.' },
      { path: '/tin', code: 'SomeFutureCode', message: '' },
    ]);
    expect(error.aboutUrl).toBeUndefined();
  });

  it("carries a Duplicate's about link", () => {
    const about = 'https://api.example.com/customers/0b1e5a52-7f5e-4a5e-9a1b-1d2c3e4f5a6b';
    const error = errorFromResponse({
      status: 400,
      body: {
        code: 'ValidationError',
        message: 'Validation error(s) present.',
        _embedded: {
          errors: [
            {
              code: 'Duplicate',
              message: 'A customer with the specified email already exists.',
              path: '/email',
              _links: { about: { href: about, type: HAL, 'resource-type': 'customer' } },
            },
          ],
        },
      },
    });
    expect(error.aboutUrl).toBe(about);
    expect(error.fields[0]).toMatchObject({ code: 'Duplicate', path: '/email', aboutUrl: about });
  });

  it('maps an idempotency key reused with another body', () => {
    const error = errorFromResponse({
      status: 400,
      body: {
        code: 'ValidationError',
        message: 'x',
        _embedded: { errors: [{ code: 'Invalid', message: 'y', path: '/' }] },
      },
    });
    expect(error.fields).toEqual([{ path: '/', code: 'Invalid', message: 'y' }]);
  });

  it('names codes after the HTTP status when the body has none', () => {
    expect(codeForStatus(404)).toBe('NotFound');
    expect(codeForStatus(429)).toBe('TooManyRequests');
    expect(codeForStatus(599)).toBe('Http599');
  });
});

describe('over HTTP', () => {
  let fake: FakeService;
  beforeAll(async () => {
    fake = await startFakeService();
  });
  afterAll(() => fake.close());

  it.each(shapes)('surfaces $status $code with the request id', async (shape) => {
    const path = `/customers/shape-${shapes.indexOf(shape)}`;
    fake.route('GET', path, (_req, res) =>
      reply(res, shape.status, shape.body, {
        'Content-Type': `${HAL}; profile="http://nocarrier.co.uk/profiles/vnd.error/"`,
      }),
    );
    const { client } = clientOf(fake, { retry: { maxAttempts: 1 } });
    const error = await client.customers.get(path.split('/')[2]!).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: shape.status, code: shape.code, message: shape.message });
    expect((error as ServiceError).requestId).toMatch(/^req-\d+$/);
  });

  it('reads a non-JSON error page as its status', async () => {
    fake.route('GET', '/customers/html', (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'text/html' });
      res.end('<html>Service Unavailable</html>');
    });
    const { client } = clientOf(fake, { retry: { maxAttempts: 1 } });
    const error = await client.customers.get('html').catch((e: unknown) => e);
    await client.close();
    expect(error).toMatchObject({ status: 503, code: 'ServiceUnavailable', retryable: true });
    expect((error as Error).message).not.toContain('<html>');
  });
});

describe('classifyNetworkError', () => {
  const kinds: [unknown, string][] = [
    [new undiciErrors.ConnectTimeoutError(), 'timeout'],
    [new undiciErrors.HeadersTimeoutError(), 'timeout'],
    [new undiciErrors.BodyTimeoutError(), 'timeout'],
    [new undiciErrors.SocketError('other side closed'), 'reset'],
    [Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'reset'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'refused'],
    [Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), 'dns'],
    [Object.assign(new Error('bad cert'), { code: 'CERT_HAS_EXPIRED' }), 'tls'],
    [Object.assign(new Error('self signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'tls'],
    [
      new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }),
      'refused',
    ],
    [new undiciErrors.RequestAbortedError(), 'aborted'],
    [new Error('something odd'), 'other'],
  ];

  it.each(kinds)('classifies %s as %s', (error, kind) => {
    const network = classifyNetworkError(error, false);
    expect(network).toBeInstanceOf(NetworkError);
    expect(network?.kind).toBe(kind);
    expect(network?.retryable).toBe(kind !== 'aborted');
  });

  it('calls anything aborted by our own signal aborted', () => {
    expect(classifyNetworkError(new Error('whatever reason'), true)?.kind).toBe('aborted');
  });

  it('leaves programming errors alone', () => {
    expect(classifyNetworkError(new undiciErrors.InvalidArgumentError('bad header'), false)).toBeUndefined();
  });
});
