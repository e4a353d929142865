/**
 * The official description of today's service (openapi.yml beside this file: Dwolla/dwolla-openapi,
 * verbatim, see SOURCE), loaded as the tests check against it:
 *
 *   loadDescription()   the document, parsed and patched by patches.ts (media type, and what the
 *                       description gets wrong); loaded once, shared; do not change it.
 *   schemaOf(name)      a schema that is `components.schemas[name]`, as a `$ref` into the document.
 *   validatorFor(ref)   an Ajv validate function for a schema name (`Customer`), a `#/…` JSON pointer
 *                       into the document, or a schema built by schemaOf; compiled once per ref.
 *   problemsOf(v, x)    what `validatorFor(…)` found wrong with x, one line each; [] when valid.
 *   problemsAt(ref, x)  the same for a ref; a `oneOf`/`anyOf` of named schemas that x fails is told
 *                       by its closest alternative's problems, not by every alternative's.
 *
 * The validator is Ajv for JSON Schema 2020-12 (the dialect OpenAPI 3.1 schemas are written in) with
 * ajv-formats, strict about the schemas: an unknown keyword is an error, never silently ignored. The whole document is one
 * schema with the id DESCRIPTION_ID, so every `$ref: '#/components/…'` in it resolves inside it.
 */
import { readFileSync } from 'node:fs';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import { applyPatches, type Doc, replaceMediaType } from './patches.ts';

export { MEDIA_TYPE, PATCHES } from './patches.ts';
export type { Doc };

export const DESCRIPTION_ID = 'https://vetted.test/official/openapi.yml';
export const DESCRIPTION_FILE = new URL('./openapi.yml', import.meta.url);

let loaded: { doc: Doc; ajv: Ajv2020 } | null = null;

/**
 * The document's own top-level fields: Ajv compiles the root of a schema it resolves a ref in, and
 * strict mode would take them for unknown keywords. As annotations they check nothing and hide nothing.
 */
const DOCUMENT_FIELDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'security',
  'tags',
  'paths',
  'components',
];

/** A fresh Ajv for 2020-12 with formats; `example` (OpenAPI's own keyword) is an annotation. */
export function createAjv(): Ajv2020 {
  // strictSchema: an unknown keyword is an error. strictTypes would only ask for `type: object` beside
  // `additionalProperties`, a style the description does not follow and which hides nothing.
  const ajv = new Ajv2020({ strictSchema: true, strictTypes: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addVocabulary(['example', ...DOCUMENT_FIELDS]);
  return ajv;
}

function load(): { doc: Doc; ajv: Ajv2020 } {
  if (loaded) return loaded;
  const text = replaceMediaType(readFileSync(DESCRIPTION_FILE, 'utf8'));
  const doc = applyPatches(yaml.load(text) as Doc);
  const ajv = createAjv();
  // The document is not itself a schema (`paths`, `info`…): only what a ref points at is compiled.
  ajv.addSchema(doc, DESCRIPTION_ID, undefined, false);
  loaded = { doc, ajv };
  return loaded;
}

export function loadDescription(): Doc {
  return load().doc;
}

export function schemaOf(name: string): { $ref: string } {
  if (!loadDescription().components.schemas[name]) throw new Error(`No schema ${name} in the description.`);
  return { $ref: `${DESCRIPTION_ID}#/components/schemas/${name}` };
}

const compiled = new Map<string, ValidateFunction>();

export function validatorFor(ref: string | { $ref: string }): ValidateFunction {
  const pointer = typeof ref === 'string' ? ref : ref.$ref;
  const key = pointer.startsWith(DESCRIPTION_ID)
    ? pointer
    : pointer.startsWith('#')
      ? `${DESCRIPTION_ID}${pointer}`
      : schemaOf(pointer).$ref;
  let validate = compiled.get(key);
  if (!validate) {
    validate = load().ajv.compile({ $ref: key });
    compiled.set(key, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '/';
  const params = Object.entries(error.params)
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
    .join(' ');
  return `${where} ${error.message ?? error.keyword}${params ? ` (${params})` : ''}`;
}

export function problemsOf(validate: ValidateFunction, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map(describe);
}

/** The schema object a `#/…` pointer names in the document. */
export function schemaAt(pointer: string): Doc | undefined {
  let node: Doc | undefined = loadDescription();
  for (const raw of pointer.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = node?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

export function problemsAt(pointer: string, value: unknown): string[] {
  const problems = problemsOf(validatorFor(pointer), value);
  const schema = pointer.startsWith('#') ? schemaAt(pointer) : undefined;
  const alternatives: Doc[] | undefined = schema?.oneOf ?? schema?.anyOf;
  if (problems.length === 0 || !alternatives?.every((alt) => typeof alt.$ref === 'string')) return problems;
  const each = alternatives.map((alt) => ({
    name: String(alt.$ref).split('/').at(-1)!,
    problems: problemsOf(validatorFor(alt.$ref), value),
  }));
  const passing = each.filter((alt) => alt.problems.length === 0).map((alt) => alt.name);
  if (passing.length > 1) return [`/ matches several alternatives of a oneOf: ${passing.join(', ')}`];
  // An alternative whose `type` (or another const) differs is another kind of thing: farthest of all.
  const distance = (alt: { problems: string[] }) =>
    alt.problems.length +
    (alt.problems.some((p) => / must be equal to (constant|one of)/.test(p)) ? 1000 : 0);
  const closest = each.reduce((best, alt) => (distance(alt) < distance(best) ? alt : best));
  return closest.problems.map((problem) => `${problem} [closest alternative: ${closest.name}]`);
}
