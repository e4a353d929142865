import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { checkAnswer, checkRequest } from './contract.ts';
import {
  createAjv,
  DESCRIPTION_FILE,
  loadDescription,
  MEDIA_TYPE,
  PATCHES,
  problemsAt,
  validatorFor,
} from './description.ts';
import type { Exchange } from './front.ts';
import { replaceMediaType } from './patches.ts';
import { README } from './tables.ts';

/** The fixture, the transform, and proof that the validator refuses what it must. */

const basic = `Basic ${Buffer.from('id:secret').toString('base64')}`;
const hal = { accept: MEDIA_TYPE, authorization: 'Bearer a-token', 'content-type': MEDIA_TYPE };

function exchange(method: string, target: string, more: Partial<Exchange> = {}): Exchange {
  return {
    method,
    target,
    headers: hal,
    body: Buffer.alloc(0),
    raw: false,
    status: 200,
    answerHeaders: { 'content-type': MEDIA_TYPE },
    answer: Buffer.alloc(0),
    ...more,
  };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const parts = (exchange: Exchange) => checkRequest(exchange).map((finding) => finding.part);

const customer = {
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  type: 'personal',
  address1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  dateOfBirth: '1990-01-01',
  ssn: '1234',
};

/** The published document with only the media type replaced, in an Ajv of its own. */
function published(): (pointer: string) => ReturnType<typeof validatorFor> {
  const doc = yaml.load(replaceMediaType(readFileSync(DESCRIPTION_FILE, 'utf8'))) as object;
  const ajv = createAjv();
  ajv.addSchema(doc, 'https://vetted.test/published.yml', undefined, false);
  return (pointer) => ajv.compile({ $ref: `https://vetted.test/published.yml${pointer}` });
}

describe('the vendored description', () => {
  it('is the published file, byte for byte (its git blob is the one SOURCE names)', () => {
    const bytes = readFileSync(DESCRIPTION_FILE);
    const blob = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
    expect(readFileSync(new URL('./SOURCE', import.meta.url), 'utf8')).toContain(blob);
  });

  it('loads with every patch applied, in the media type of this world only', () => {
    const text = JSON.stringify(loadDescription());
    expect(text).not.toContain('vnd.dwolla');
    expect(loadDescription().components.securitySchemes.basicAuth).toEqual({ type: 'http', scheme: 'basic' });
    const readme = readFileSync(README, 'utf8');
    for (const patch of PATCHES) expect(readme, patch.id).toContain(`\`${patch.id}\``);
  });

  it('needs its patches: unpatched, the dialect cannot load, and good bodies fail the oneOfs', () => {
    const dialect = 'https://spec.openapis.org/oas/3.1/dialect/base';
    expect(loadDescription().jsonSchemaDialect).not.toBe(dialect);
    expect(() => createAjv().compile({ $schema: dialect, type: 'object' })).toThrow(
      /no schema with key or ref/,
    );
    const compile = published();
    const retry = compile('#/paths/~1customers~1{id}/post/requestBody/content/application~1json/schema');
    expect(retry({ ...customer, ssn: '123-45-6789' })).toBe(false);
    expect(validatorFor('RetryVerifiedPersonal')({ ...customer, ssn: '123-45-6789' })).toBe(true);
    const refusal = { code: 'invalidResourceState', message: 'Resource cannot be modified.' };
    const documents403 = '#/paths/~1customers~1{id}~1documents/post/responses/403/content/';
    expect(compile(`${documents403}${MEDIA_TYPE.replace('/', '~1')}/schema`)(refusal)).toBe(false);
    expect(problemsAt(`${documents403}${MEDIA_TYPE.replace('/', '~1')}/schema`, refusal)).toEqual([]);
  });
});

describe('the validator refuses what the description refuses', () => {
  it('passes a request that meets the description, so the refusals below are not vacuous', () => {
    expect(parts(exchange('POST', '/customers', { body: json(customer) }))).toEqual([]);
    const token = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      parts(
        exchange('POST', '/token', { headers: token, body: Buffer.from('grant_type=client_credentials') }),
      ),
    ).toEqual([]);
  });

  it('refuses a create with `tin` and no `ssn`, and a retry without the full fields', () => {
    const { ssn: _, ...withTin } = { ...customer, tin: '1234' };
    const found = checkRequest(exchange('POST', '/customers', { body: json(withTin) }));
    expect(found.map((finding) => finding.part)).toContain('request body');
    expect(found.map((finding) => finding.message).join('\n')).toMatch(/ssn/);
    expect(parts(exchange('POST', '/customers/abc', { body: json({ firstName: 'Jane' }) }))).toContain(
      'request body',
    );
  });

  it('refuses wrong headers, parameters, security, media types and paths', () => {
    expect(parts(exchange('GET', '/customers', { headers: { ...hal, accept: 'application/json' } }))).toEqual(
      ['request header Accept'],
    );
    expect(parts(exchange('GET', '/customers?limit=many'))).toEqual(['request query limit']);
    expect(parts(exchange('GET', '/customers?colour=red'))).toEqual(['request query colour']);
    expect(parts(exchange('GET', '/customers', { headers: { ...hal, authorization: basic } }))).toEqual([
      'request security',
    ]);
    const token = { authorization: 'Bearer x', 'content-type': 'application/x-www-form-urlencoded' };
    const grant = Buffer.from('grant_type=password');
    expect(parts(exchange('POST', '/token', { headers: token, body: grant }))).toEqual([
      'request security',
      'request body',
    ]);
    const text = { ...hal, 'content-type': 'text/plain' };
    expect(parts(exchange('POST', '/webhook-subscriptions', { headers: text, body: json({}) }))).toEqual([
      'request content-type',
    ]);
    expect(parts(exchange('POST', '/webhook-subscriptions', { body: json({ url: 'https://x' }) }))).toEqual([
      'request body',
    ]);
    const form = (type: string) =>
      Buffer.from(
        `--b\r\nContent-Disposition: form-data; name="documentType"\r\n\r\n${type}\r\n` +
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nxx\r\n--b--\r\n',
      );
    const multipart = { ...hal, 'content-type': 'multipart/form-data; boundary=b' };
    expect(
      parts(exchange('POST', '/customers/c/documents', { headers: multipart, body: form('passport') })),
    ).toEqual([]);
    expect(
      parts(exchange('POST', '/customers/c/documents', { headers: multipart, body: form('selfie') })),
    ).toEqual(['request body']);
    expect(parts(exchange('POST', '/oauth/v2/token'))).toEqual(['operation']);
    const keyed = { ...hal, 'idempotency-key': 'k-1' };
    expect(parts(exchange('POST', '/customers', { headers: keyed, body: json(customer) }))).toEqual([]);
    expect(parts(exchange('GET', '/customers', { headers: keyed }))).toEqual([
      'request header Idempotency-Key',
    ]);
    const html = {
      authorization: basic,
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    };
    const credentials = Buffer.from('grant_type=client_credentials');
    expect(parts(exchange('POST', '/token', { headers: html, body: credentials }))).toEqual([
      'request header Accept',
    ]);
  });

  it('refuses answers of an unlisted status, a wrong media type or a body off its schema', () => {
    const answer = (status: number, body: unknown, type = MEDIA_TYPE) =>
      checkAnswer(
        exchange('GET', '/customers/c', {
          status,
          answer: json(body),
          answerHeaders: { 'content-type': type },
        }),
      ).map((finding) => finding.part);
    const once = (found: string[]) => [...new Set(found)];
    expect(answer(418, { code: 'Teapot', message: 'no' })).toEqual(['answer 418']);
    expect(answer(200, {}, 'application/json')).toEqual(['answer 200 media type']);
    expect(once(answer(200, { id: 'c', firstName: 'Jane' }))).toEqual(['answer 200 body']);
    expect(answer(404, { code: 'notFound', message: 'Customer not found.' })).toEqual([]);
  });
});
