/**
 * The one transform between the published description (openapi.yml beside this file, kept verbatim)
 * and the document the tests validate against. Each patch says what the description gets wrong and
 * why the fix is right, and first checks that the fault is still there: if upstream ever fixes it
 * (or the file is replaced), loading fails and says which patch to drop, instead of patching blind.
 */

// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, walked by path
export type Doc = Record<string, any>;

export interface Patch {
  id: string;
  /** What the description says, and why that is wrong (for the README and the failure message). */
  why: string;
  /** Throws when the fault is not there; otherwise changes `doc` in place. */
  apply(doc: Doc): void;
}

/** Raw text in, parsed out: the media type is in keys, enums, defaults and prose alike. */
export const PUBLISHED_MEDIA_TYPE = 'application/vnd.dwolla.v1.hal';
export const MEDIA_TYPE = 'application/vnd.service.v1.hal+json';

export function replaceMediaType(text: string): string {
  if (!text.includes(`${PUBLISHED_MEDIA_TYPE}+json`)) throw stale('media-type');
  return text.replaceAll(PUBLISHED_MEDIA_TYPE, 'application/vnd.service.v1.hal');
}

function stale(id: string): Error {
  return new Error(`Patch ${id}: the fault it fixes is no longer in openapi.yml; drop or change the patch.`);
}

function check(id: string, condition: boolean): void {
  if (!condition) throw stale(id);
}

const op = (doc: Doc, method: string, path: string): Doc => doc.paths?.[path]?.[method] ?? {};
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const PATCHES: readonly Patch[] = [
  {
    id: 'media-type',
    why:
      'The description names the media type application/vnd.dwolla.v1.hal+json; in this world it is ' +
      'application/vnd.service.v1.hal+json (SOURCE). Replaced everywhere before parsing.',
    apply: () => {}, // done on the text: replaceMediaType
  },
  {
    id: 'basic-auth-scheme',
    why:
      '`POST /token` requires the security scheme `basicAuth`, which `components.securitySchemes` never ' +
      'defines (only `clientCredentials`). The operation itself says the credentials go in HTTP Basic ' +
      '(real-service.md "token endpoint"): defined as `{type: http, scheme: basic}`.',
    apply(doc) {
      const named = (op(doc, 'post', '/token').security ?? []).some((req: Doc) => 'basicAuth' in req);
      check('basic-auth-scheme', named && !doc.components.securitySchemes?.basicAuth);
      doc.components.securitySchemes.basicAuth = { type: 'http', scheme: 'basic' };
    },
  },
  {
    id: 'json-schema-dialect',
    why:
      '`jsonSchemaDialect` names the OpenAPI base dialect by a URI whose meta-schema no validator here ' +
      'bundles or can fetch; a validator either refuses to compile or, lenient, validates nothing. The ' +
      "schemas use plain 2020-12 plus OpenAPI's annotation `example`: named as 2020-12, with `example` " +
      'registered as an annotation (description.ts).',
    apply(doc) {
      check(
        'json-schema-dialect',
        doc.jsonSchemaDialect === 'https://spec.openapis.org/oas/3.1/dialect/base',
      );
      doc.jsonSchemaDialect = 'https://json-schema.org/draft/2020-12/schema';
    },
  },
  {
    id: 'retry-body',
    why:
      'The body of `POST /customers/{id}` is a `oneOf` of 15 updates whose alternatives overlap ' +
      '(`UpdateVerifiedPersonal` requires nothing, so whatever matches `RetryVerifiedPersonal` matches it ' +
      'too): no body can match exactly one. The only update Vetted sends is the retry: validated against ' +
      '`RetryVerifiedPersonal` itself.',
    apply(doc) {
      const schema = op(doc, 'post', '/customers/{id}').requestBody?.content?.['application/json']?.schema;
      const names = (schema?.oneOf ?? []).map((alt: Doc) => alt.$ref);
      check(
        'retry-body',
        names.includes('#/components/schemas/RetryVerifiedPersonal') &&
          names.includes('#/components/schemas/UpdateVerifiedPersonal') &&
          !doc.components.schemas.UpdateVerifiedPersonal.required,
      );
      op(doc, 'post', '/customers/{id}').requestBody.content['application/json'].schema =
        schemaRef('RetryVerifiedPersonal');
    },
  },
  {
    id: 'hal-request-bodies',
    why:
      'Three request bodies (`POST /customers/{id}`, `POST /webhook-subscriptions`, `POST ' +
      '/webhook-subscriptions/{id}`) are listed under `application/json` only, while every other JSON body ' +
      "is under the service's media type, which customer and subscription requests carry " +
      '(service-interface.md §4; service-facts.md §1: bodies may also be sent as application/json). The ' +
      'media type added beside `application/json`, with the same schema.',
    apply(doc) {
      for (const path of ['/customers/{id}', '/webhook-subscriptions', '/webhook-subscriptions/{id}']) {
        const content = op(doc, 'post', path).requestBody?.content ?? {};
        check('hal-request-bodies', Boolean(content['application/json']) && !content[MEDIA_TYPE]);
        content[MEDIA_TYPE] = content['application/json'];
      }
    },
  },
  {
    id: 'too-many-requests-media-type',
    why:
      'The 429 of `POST /webhook-subscriptions` is listed under `application/vnd.dwolla.v1.hal`, without ' +
      'the `+json` of the media type every other answer has: a typo, so no answer could match it.',
    apply(doc) {
      const content = op(doc, 'post', '/webhook-subscriptions').responses?.['429']?.content ?? {};
      const typo = 'application/vnd.service.v1.hal';
      check('too-many-requests-media-type', Boolean(content[typo]) && !content[MEDIA_TYPE]);
      content[MEDIA_TYPE] = content[typo];
      delete content[typo];
    },
  },
  {
    id: 'customer-list-query',
    why:
      '`GET /customers` lists `limit`, `offset`, `search` and one `status`; the service also filters by ' +
      'exact `email`, and `status` repeats (service-facts.md §4 "Customer list"). Vetted asks by e-mail ' +
      'before re-sending a create whose key has expired: `email` added, `status` an array of strings.',
    apply(doc) {
      const params: Doc[] = op(doc, 'get', '/customers').parameters ?? [];
      const status = params.find((param) => param.name === 'status');
      check(
        'customer-list-query',
        status?.schema?.type === 'string' && !params.some((param) => param.name === 'email'),
      );
      status!.schema = { type: 'array', items: { type: 'string' } };
      params.push({
        name: 'email',
        in: 'query',
        description: 'Exact e-mail address',
        required: false,
        schema: { type: 'string' },
      });
    },
  },
  {
    id: 'idempotency-key',
    why:
      'Only `POST /transfers` and `POST /mass-payments` list the `Idempotency-Key` header, while the ' +
      'service takes it on any POST (service-facts.md §8; real-service.md: replay unchanged), and Vetted ' +
      'sends it on its creates, retries, uploads and redeliveries. The same header parameter added to ' +
      'every POST that lacks it.',
    apply(doc) {
      const declared = (op(doc, 'post', '/transfers').parameters ?? []).find(
        (param: Doc) => param.name === 'Idempotency-Key',
      );
      const lacking = Object.values(doc.paths as Doc).filter(
        (item) =>
          item.post && !(item.post.parameters ?? []).some((param: Doc) => param.name === 'Idempotency-Key'),
      );
      check(
        'idempotency-key',
        Boolean(declared) && op(doc, 'post', '/customers') !== undefined && lacking.length > 0,
      );
      for (const item of lacking) item.post.parameters = [...(item.post.parameters ?? []), { ...declared }];
    },
  },
  {
    id: 'error-alternatives',
    why:
      'Error answers given as a `oneOf` of error schemas (e.g. the 400 and 403 of `POST ' +
      '/customers/{id}/documents`, the 400 of `POST /webhook-subscriptions`) cannot be met: the ' +
      'alternatives differ only in the `example` of their `code` (upstream dropped the single-value enums ' +
      'that told them apart, commit 05c6938), so every error body matches several. Each such `oneOf` ' +
      '(every alternative with an unpinned `code`) becomes an `anyOf` of the same alternatives.',
    apply(doc) {
      const patched = errorOneOfs(doc);
      check(
        'error-alternatives',
        [
          '400 post /customers/{id}/documents',
          '403 post /customers/{id}/documents',
          '400 post /webhook-subscriptions',
        ].every((known) => patched.some((where) => where === known)),
      );
    },
  },
];

/** Whether nothing in an error schema tells it from another: its `code` is not pinned to a value. */
function unpinnedError(doc: Doc, schema: Doc): boolean {
  const resolved = schema.$ref ? doc.components.schemas[String(schema.$ref).split('/').at(-1)!] : schema;
  const code = resolved?.properties?.code;
  return (
    Boolean(code) && code.const === undefined && code.enum === undefined && !resolved.additionalProperties
  );
}

/** Turns every indistinguishable error `oneOf` into an `anyOf`; returns `<status> <method> <path>` of each. */
function errorOneOfs(doc: Doc): string[] {
  const patched: string[] = [];
  for (const [path, item] of Object.entries(doc.paths as Doc)) {
    for (const [method, operation] of Object.entries(item as Doc)) {
      for (const [status, response] of Object.entries((operation as Doc).responses ?? {})) {
        if (Number(status) < 400) continue;
        for (const media of Object.values((response as Doc).content ?? {}) as Doc[]) {
          const alternatives: Doc[] | undefined = media.schema?.oneOf;
          if (!alternatives?.every((alt) => unpinnedError(doc, alt))) continue;
          media.schema = { anyOf: alternatives };
          patched.push(`${status} ${method} ${path}`);
        }
      }
    }
  }
  return patched;
}

/** Applies every patch in order. */
export function applyPatches(doc: Doc): Doc {
  for (const patch of PATCHES) patch.apply(doc);
  return doc;
}
