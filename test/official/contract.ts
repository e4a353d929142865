/**
 * Checks one recorded exchange (front.ts) against the description's operation: the request (path and
 * method, path/query/header parameters, security, media type and body) and the answer (a status the
 * operation lists, its media type, its body's schema). Every deviation is a Finding, keyed by the
 * operation's template and the part it is about, which is what the README's tables list.
 */

import { type Doc, loadDescription, problemsAt, problemsOf, validatorFor } from './description.ts';
import type { Exchange } from './front.ts';

export interface Finding {
  /** `POST /customers/{id}` as the description writes it, or the method and path when none matches. */
  operation: string;
  /** `request body`, `request query email`, `answer 429`, `answer 200 body`… */
  part: string;
  message: string;
}

export interface Operation {
  method: string;
  template: string;
  /** The JSON pointer of the operation object in the document. */
  pointer: string;
  op: Doc;
  params: Record<string, string>;
}

const pointerSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const baseType = (value: string | string[] | undefined) =>
  String(value ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** The operation for a method and path; a literal segment wins over a parameter (`/customers/{id}`). */
export function operationFor(method: string, pathname: string): Operation | null {
  const doc = loadDescription();
  let best: (Operation & { holes: number }) | null = null;
  for (const template of Object.keys(doc.paths)) {
    const names: string[] = [];
    const pattern = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(pathname);
    const op = doc.paths[template][method.toLowerCase()];
    if (!match || !op || (best && best.holes <= names.length)) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]));
    const pointer = `#/paths/${pointerSegment(template)}/${method.toLowerCase()}`;
    best = { method: method.toUpperCase(), template, pointer, op, params, holes: names.length };
  }
  return best;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Doc;
  /** Pointer to its schema. */
  schemaPointer: string;
}

/** The operation's parameters with their `$ref`s resolved (the path item's too). */
function parametersOf(operation: Operation): Parameter[] {
  const doc = loadDescription();
  const itemPointer = operation.pointer.slice(0, operation.pointer.lastIndexOf('/'));
  const lists: [Doc[], string][] = [
    [doc.paths[operation.template].parameters ?? [], `${itemPointer}/parameters`],
    [operation.op.parameters ?? [], `${operation.pointer}/parameters`],
  ];
  return lists.flatMap(([list, at]) =>
    list.map((param, i) => {
      if (!param.$ref) return { ...param, schemaPointer: `${at}/${i}/schema` } as Parameter;
      const name = String(param.$ref).replace('#/components/parameters/', '');
      return { ...doc.components.parameters[name], schemaPointer: `${param.$ref}/schema` } as Parameter;
    }),
  );
}

function coerce(schema: Doc, raw: string): unknown {
  if ((schema.type === 'integer' || schema.type === 'number') && /^-?\d+(\.\d+)?$/.test(raw))
    return Number(raw);
  if (schema.type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function header(headers: Exchange['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

type Check = (param: Parameter, value: unknown, part: string) => void;

/** One query parameter: sent once (or repeated, for an array), valid, and present when required. */
function checkQuery(param: Parameter, url: URL, check: Check): string[][] {
  const part = `request query ${param.name}`;
  const values = url.searchParams.getAll(param.name);
  if (values.length === 0) return param.required ? [[part, 'required, not sent']] : [];
  if (param.schema.type === 'array') {
    check(
      param,
      values.map((value) => coerce(param.schema.items ?? {}, value)),
      part,
    );
  } else if (values.length > 1) {
    return [[part, `sent ${values.length} times; the schema takes one`]];
  } else check(param, coerce(param.schema, values[0]!), part);
  return [];
}

function checkParameters(operation: Operation, ex: Exchange, url: URL): string[][] {
  const found: string[][] = [];
  const params = parametersOf(operation);
  const check: Check = (param, value, part) => {
    for (const problem of problemsOf(validatorFor(param.schemaPointer), value)) found.push([part, problem]);
  };
  // Of the headers an operation does not list, only this one changes what the service does.
  const keyed = header(ex.headers, 'idempotency-key') !== undefined;
  if (keyed && !params.some((param) => param.in === 'header' && param.name === 'Idempotency-Key')) {
    found.push(['request header Idempotency-Key', 'not a parameter of the operation']);
  }
  for (const name of new Set(url.searchParams.keys())) {
    if (!params.some((param) => param.in === 'query' && param.name === name)) {
      found.push([`request query ${name}`, 'not a parameter of the operation']);
    }
  }
  for (const param of params) {
    const part = `request ${param.in} ${param.name}`;
    if (param.in === 'path') check(param, coerce(param.schema, operation.params[param.name] ?? ''), part);
    if (param.in === 'query') found.push(...checkQuery(param, url, check));
    if (param.in !== 'header') continue;
    const value = header(ex.headers, param.name);
    if (value === undefined && param.required) found.push([part, 'required, not sent']);
    else if (value !== undefined) check(param, coerce(param.schema, value), part);
  }
  return found;
}

/** Whether the request meets one security scheme of the document. */
function meetsScheme(scheme: Doc | undefined, ex: Exchange): boolean {
  const authorization = header(ex.headers, 'authorization') ?? '';
  if (scheme?.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    const match = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(authorization);
    return Boolean(match && Buffer.from(match[1]!, 'base64').toString('utf8').includes(':'));
  }
  const bearer = scheme?.type === 'oauth2' || (scheme?.type === 'http' && scheme.scheme === 'bearer');
  return bearer && /^Bearer \S+$/.test(authorization);
}

/**
 * `Accept` must take a media type the operation answers with on success. Where the operation lists
 * Accept as a parameter (every API call), the parameter's own check says it.
 */
function checkAccept(operation: Operation, ex: Exchange): string[][] {
  if (parametersOf(operation).some((param) => param.in === 'header' && param.name === 'Accept')) return [];
  const accept = header(ex.headers, 'accept');
  const answers = Object.entries(operation.op.responses ?? {})
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys((response as Doc).content ?? {}));
  if (!accept || answers.length === 0) return [];
  const taken = accept.split(',').map(baseType);
  const takes = (type: string) =>
    taken.some((range) => range === '*/*' || range === type || range === `${type.split('/')[0]}/*`);
  return answers.some(takes)
    ? []
    : [['request header Accept', `${accept} takes none of ${answers.join(', ')}`]];
}

function checkSecurity(operation: Operation, ex: Exchange): string[][] {
  const doc = loadDescription();
  const requirements: Doc[] = operation.op.security ?? doc.security ?? [];
  const schemes = doc.components.securitySchemes ?? {};
  const undefinedNames = requirements.flatMap(Object.keys).filter((name) => !schemes[name]);
  if (undefinedNames.length > 0) {
    return [['request security', `scheme ${undefinedNames.join(', ')} is not defined in the description`]];
  }
  const met = requirements.some((req) => Object.keys(req).every((name) => meetsScheme(schemes[name], ex)));
  if (requirements.length === 0 || met) return [];
  const names = requirements.map((req) => Object.keys(req).join('+')).join(' or ');
  return [['request security', `Authorization does not meet ${names}`]];
}

/** The multipart form's fields by name; a file part is its file name (`format: binary` is a string). */
function multipartFields(body: Buffer, contentType: string): Record<string, string> {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) return {};
  const fields: Record<string, string> = {};
  for (const part of body.toString('latin1').split(`--${boundary}`).slice(1, -1)) {
    const [head = '', ...rest] = part.split('\r\n\r\n');
    const name = /name="([^"]*)"/.exec(head)?.[1];
    const fileName = /filename="([^"]*)"/.exec(head)?.[1];
    if (name !== undefined) fields[name] = fileName ?? rest.join('\r\n\r\n').replace(/\r\n$/, '');
  }
  return fields;
}

function parseBody(type: string, body: Buffer, contentType: string): { value?: unknown; error?: string } {
  try {
    if (type === 'application/json' || type.endsWith('+json'))
      return { value: JSON.parse(body.toString('utf8')) };
    if (type === 'application/x-www-form-urlencoded') {
      return { value: Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
    }
    if (type === 'multipart/form-data') return { value: multipartFields(body, contentType) };
  } catch (error) {
    return { error: `not ${type}: ${(error as Error).message}` };
  }
  return { error: `no parser for ${type}` };
}

function checkRequestBody(operation: Operation, ex: Exchange): string[][] {
  const requestBody = operation.op.requestBody;
  if (!requestBody) return ex.body.length > 0 ? [['request body', 'the operation takes no body']] : [];
  if (ex.body.length === 0) return requestBody.required ? [['request body', 'required, not sent']] : [];
  const contentType = header(ex.headers, 'content-type') ?? '';
  const type = baseType(contentType);
  if (!requestBody.content?.[type]) {
    const listed = Object.keys(requestBody.content ?? {}).join(', ');
    return [['request content-type', `${type || 'none'}; the operation takes ${listed}`]];
  }
  const { value, error } = parseBody(type, ex.body, contentType);
  if (error) return [['request body', error]];
  const pointer = `${operation.pointer}/requestBody/content/${pointerSegment(type)}/schema`;
  return problemsAt(pointer, value).map((problem) => ['request body', problem]);
}

const findings = (operation: string, found: string[][]): Finding[] =>
  found.map(([part, message]) => ({ operation, part: part!, message: message! }));

/** What in a request the client built leaves the description. */
export function checkRequest(ex: Exchange): Finding[] {
  const url = new URL(ex.target, 'http://service.invalid');
  const operation = operationFor(ex.method, url.pathname);
  if (!operation) {
    return [
      { operation: `${ex.method} ${url.pathname}`, part: 'operation', message: 'not in the description' },
    ];
  }
  const name = `${operation.method} ${operation.template}`;
  return findings(name, [
    ...checkParameters(operation, ex, url),
    ...checkAccept(operation, ex),
    ...checkSecurity(operation, ex),
    ...checkRequestBody(operation, ex),
  ]);
}

/** The response object the description gives for a status, and its pointer. */
export function responseFor(operation: Operation, status: number): { response: Doc; pointer: string } | null {
  const responses = operation.op.responses ?? {};
  for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
    if (responses[key]) return { response: responses[key], pointer: `${operation.pointer}/responses/${key}` };
  }
  return null;
}

/** What in an answer leaves the description (nothing for a request outside it: checkRequest says so). */
export function checkAnswer(ex: Exchange): Finding[] {
  const operation = operationFor(ex.method, new URL(ex.target, 'http://service.invalid').pathname);
  if (!operation) return [];
  const name = `${operation.method} ${operation.template}`;
  const given = responseFor(operation, ex.status);
  if (!given) return findings(name, [[`answer ${ex.status}`, 'a status the operation does not list']]);
  const found = [...checkAnswerHeaders(given, ex), ...checkAnswerBody(given, ex)];
  return findings(
    name,
    found.map(([part, message]) => [`answer ${ex.status}${part}`, message!]),
  );
}

/** The headers the response lists (`Location` on a 201): present when required, valid when present. */
function checkAnswerHeaders(
  { response, pointer }: { response: Doc; pointer: string },
  ex: Exchange,
): string[][] {
  const found: string[][] = [];
  for (const [name, declared] of Object.entries((response.headers ?? {}) as Doc)) {
    const at = declared.$ref ? String(declared.$ref) : `${pointer}/headers/${pointerSegment(name)}`;
    const definition = declared.$ref ? loadDescription().components.headers[at.split('/').at(-1)!] : declared;
    const value = header(ex.answerHeaders, name);
    if (value === undefined) {
      if (definition?.required) found.push([` header ${name}`, 'required, not sent']);
    } else if (definition?.schema) {
      for (const problem of problemsOf(validatorFor(`${at}/schema`), value))
        found.push([` header ${name}`, problem]);
    }
  }
  return found;
}

function checkAnswerBody(
  { response, pointer }: { response: Doc; pointer: string },
  ex: Exchange,
): string[][] {
  const content: Doc = response.content ?? {};
  const listed = Object.keys(content);
  if (ex.answer.length === 0)
    return listed.length > 0 ? [[' body', `empty; the description gives ${listed}`]] : [];
  if (listed.length === 0) return [[' body', 'a body where the description gives none']];
  const contentType = header(ex.answerHeaders, 'content-type') ?? '';
  const type = baseType(contentType);
  if (!content[type]) return [[' media type', `${type}; the description gives ${listed.join(', ')}`]];
  const { value, error } = parseBody(type, ex.answer, contentType);
  if (error) return [[' body', error]];
  if (!content[type].schema) return [];
  const schema = `${pointer}/content/${pointerSegment(type)}/schema`;
  return problemsAt(schema, value).map((problem) => [' body', problem]);
}

/** An answer's body checked against a schema of the description's choosing (an allowance's stand-in). */
export function checkAnswerAgainst(ex: Exchange, schemaName: string): string[] {
  const { value, error } = parseBody('application/json', ex.answer, '');
  return error ? [error] : problemsOf(validatorFor(schemaName), value);
}

/** The operation an exchange is of, as findings name it (method and path when the description has none). */
export function operationName(ex: Exchange): string {
  const pathname = new URL(ex.target, 'http://service.invalid').pathname;
  const operation = operationFor(ex.method, pathname);
  return operation ? `${operation.method} ${operation.template}` : `${ex.method} ${pathname}`;
}

/** Every finding of a recorded run: the requests the client built, and every answer. */
export function findingsOf(exchanges: readonly Exchange[]): (Finding & { exchange: Exchange })[] {
  return exchanges.flatMap((exchange) =>
    [...(exchange.raw ? [] : checkRequest(exchange)), ...checkAnswer(exchange)].map((finding) => ({
      ...finding,
      exchange,
    })),
  );
}

/** One line a failing test shows: what, where, and the exchange it was found in. */
export const shown = (finding: Finding & { exchange: Exchange }): string =>
  `${finding.operation} | ${finding.part}: ${finding.message} ` +
  `(${finding.exchange.method} ${finding.exchange.target} → ${finding.exchange.status})`;
