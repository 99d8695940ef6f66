// Plain JSON Schema, checked: one validator on every runtime, a schema refused when it uses what the validator cannot
// check, and its errors as issues that name each wrong field.
//
// The validator is @cfworker/json-schema: it interprets the schema (no eval, no new Function, so it runs on Workers,
// where code generation is forbidden, as Ajv's compiled validators need), has no dependencies, and covers drafts 4, 7,
// 2019-09 and 2020-12 (2020-12 is MCP's default dialect).
import { dereference, format as FORMATS, type OutputUnit, type Schema, type SchemaDraft, validate } from '@cfworker/json-schema';
import { quickCheck } from './json-schema-quick';

/** One thing wrong with a value: where (property names and item indexes from the root), which keyword, and what. */
export interface JsonSchemaIssue {
  path: string[];
  keyword: string;
  message: string;
}

/** Checks a value against one JSON Schema: no issues when it fits. */
export type JsonSchemaCheck = (value: unknown) => JsonSchemaIssue[];

// `$schema` without its scheme and trailing `#`: the drafts are written both ways.
const DRAFTS = new Map<string, SchemaDraft>([
  ['//json-schema.org/draft-04/schema', '4'],
  ['//json-schema.org/draft-07/schema', '7'],
  ['//json-schema.org/draft/2019-09/schema', '2019-09'],
  ['//json-schema.org/draft/2020-12/schema', '2020-12'],
]);

// Keywords whose value is a map of names to schemas: their keys are names, not keywords.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
// Keywords whose value is data, not schemas.
const DATA = new Set(['const', 'enum', 'default', 'examples', 'required', 'dependentRequired']);
// Keywords the validator skips without a word, so a schema that relies on them would not be checked.
const UNCHECKED = new Set(['$dynamicRef', '$dynamicAnchor']);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Prepares a check of `schema`. `formats: 'strict'` (a tool's schema, at startup) refuses a format the validator does
 * not know; `'known'` (a question's form, at call time) ignores it, as JSON Schema does by default. Either way it throws,
 * with the reason, on a `$schema` it does not know, a `$ref` that resolves to nothing in the schema, a pattern that is
 * no regular expression, or `$dynamicRef`.
 */
export function compileJsonSchema(schema: Record<string, unknown>, formats: 'strict' | 'known'): JsonSchemaCheck {
  // The validator marks the schema it reads: it gets its own copy, and the caller's object (the wire's) stays as written.
  const copy = structuredClone(schema);
  const draft = draftOf(copy.$schema);
  const lookup = dereference(copy as Schema);
  const problem = unsupported(copy, '#', formats, lookup);
  if (problem) throw new Error(problem);
  // Every error, not the first only: each wrong field is named.
  const run = (value: unknown) => validate(value, copy as Schema, draft, lookup, false);
  const quick = quickCheck(copy, draft);
  return (value) => {
    if (quick?.(value)) return [];
    let result: ReturnType<typeof validate>;
    try {
      result = run(value);
    } catch {
      // undefined, a function or a bigint inside a returned value: check what JSON would carry instead.
      result = run(JSON.parse(JSON.stringify(value) ?? 'null'));
    }
    return result.valid ? [] : issuesOf(result.errors, copy, lookup);
  };
}

function draftOf(uri: unknown): SchemaDraft {
  if (uri === undefined) return '2020-12';
  const draft = typeof uri === 'string' ? DRAFTS.get(uri.replace(/^https?:/, '').replace(/#$/, '')) : undefined;
  if (!draft)
    throw new Error(
      `$schema ${JSON.stringify(uri)} is not a dialect the validator knows: leave it out (2020-12) or name draft 4, 7, 2019-09 or 2020-12`,
    );
  return draft;
}

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
};

/** The first thing in the schema the validator would not check, or would throw on at call time. */
function unsupported(node: unknown, at: string, formats: 'strict' | 'known', lookup: Record<string, unknown>): string | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = unsupported(item, `${at}/${i}`, formats, lookup);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${key}`;
    if (UNCHECKED.has(key)) return `${key} at ${at} is not checked by the validator: write the schema without it`;
    if (DATA.has(key)) continue;
    if (key === 'format' && typeof value === 'string' && !Object.hasOwn(FORMATS, value)) {
      if (formats === 'known') delete node.format;
      else return `format "${value}" at ${at} is not one the validator checks: use one of ${Object.keys(FORMATS).join(', ')}`;
    }
    if (key === 'pattern' && typeof value === 'string' && !compiles(value)) return `pattern at ${at} is not a regular expression`;
    if (key === '$ref' && typeof value === 'string') {
      const target = (node as { __absolute_ref__?: string }).__absolute_ref__ ?? value;
      if (lookup[target] === undefined) return `$ref "${value}" at ${at} names no schema in this one (other documents are not fetched)`;
    }
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      for (const [name, inner] of Object.entries(value)) {
        if (key === 'patternProperties' && !compiles(name)) return `patternProperties "${name}" at ${at} is not a regular expression`;
        const found = unsupported(inner, `${here}/${name}`, formats, lookup);
        if (found) return found;
      }
      continue;
    }
    const found = unsupported(value, here, formats, lookup);
    if (found) return found;
  }
  return undefined;
}

// Errors that only say "something inside failed": the inner errors say what.
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'if',
  '$ref',
  '$recursiveRef',
  'dependentSchemas',
  'dependencies',
]);
// Errors whose inner errors are each branch's failure, noise beside "none of the branches".
const BRANCHES = new Set(['anyOf', 'oneOf', 'not', 'contains', 'propertyNames']);

const RANGE = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
const LENGTH = new Set(['minLength', 'maxLength']);
const COUNT = new Set(['minItems', 'maxItems', 'minContains', 'maxContains']);

/** A JSON Pointer fragment (`#/a/b~1c`) as its names. */
const pathOf = (location: string): string[] =>
  location === '#'
    ? []
    : location
        .slice(2)
        .split('/')
        .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));

/** The schema at a keyword's location, through the `$ref`s on the way. */
function schemaAt(root: unknown, keywordLocation: string, lookup: Record<string, unknown>): Record<string, unknown> | undefined {
  let node = root;
  for (const name of pathOf(keywordLocation).slice(0, -1)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (name === '$ref' && isObject(node) && typeof node.$ref === 'string')
      node = lookup[(node as { __absolute_ref__?: string }).__absolute_ref__ ?? node.$ref];
    else node = Object.hasOwn(node, name) ? (node as Record<string, unknown>)[name] : undefined;
  }
  return isObject(node) ? node : undefined;
}

/** The values a schema allows, when it lists them: `const`, `enum`, or a oneOf/anyOf of consts (elicitation's titled choices). */
export function optionsOf(schema: Record<string, unknown> | undefined): unknown[] | undefined {
  if (!schema) return undefined;
  if (Object.hasOwn(schema, 'const')) return [schema.const];
  if (Array.isArray(schema.enum)) return schema.enum;
  const branches = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(branches) || !branches.every((b) => isObject(b) && Object.hasOwn(b, 'const'))) return undefined;
  return branches.map((b) => (b as { const: unknown }).const);
}

const quoted = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function messageOf(error: OutputUnit, root: unknown, lookup: Record<string, unknown>): string {
  const { keyword } = error;
  const schema = schemaAt(root, error.keywordLocation, lookup);
  if (keyword === 'type') {
    const type = schema?.type ?? /Expected (.*)\.$/.exec(error.error)?.[1];
    return `expected ${Array.isArray(type) ? type.join(' or ') : String(type).replace(/"/g, '')}`;
  }
  if (keyword === 'required' || keyword === 'dependentRequired') return 'required';
  if (keyword === 'false') return 'not allowed';
  if (keyword === 'const' || keyword === 'enum' || keyword === 'oneOf' || keyword === 'anyOf') {
    const options = optionsOf(schema);
    if (options) return `expected one of ${quoted(options)}`;
    return keyword === 'oneOf' && !/\(0 matches\)/.test(error.error) ? 'matches more than one allowed shape' : 'matches no allowed shape';
  }
  if (keyword === 'format') return `expected a valid ${String(schema?.format)}`;
  if (RANGE.has(keyword)) return 'out of range';
  if (keyword === 'multipleOf') return `expected a multiple of ${String(schema?.multipleOf)}`;
  if (LENGTH.has(keyword)) return 'wrong length';
  if (keyword === 'pattern') return `does not match the pattern ${String(schema?.pattern)}`;
  if (COUNT.has(keyword)) return 'wrong number of items';
  // The rarer keywords (not, contains, uniqueItems, minProperties, propertyNames…) in the validator's own words.
  return error.error;
}

/** The validator's errors as issues: the wrappers and a branch's inner errors left out, each issue where its value is. */
function issuesOf(errors: OutputUnit[], root: unknown, lookup: Record<string, unknown>): JsonSchemaIssue[] {
  const issues: JsonSchemaIssue[] = [];
  const branches: string[] = [];
  for (const error of errors) {
    if (WRAPPERS.has(error.keyword)) continue;
    if (branches.some((b) => error.keywordLocation.startsWith(b))) continue;
    if (BRANCHES.has(error.keyword)) branches.push(`${error.keywordLocation}/`);
    const path = pathOf(error.instanceLocation);
    // A missing property is reported where it would be.
    const missing =
      error.keyword === 'required' || error.keyword === 'dependentRequired' ? /property "([\s\S]*)"\.$/.exec(error.error) : null;
    if (missing) path.push(missing[1]!);
    issues.push({ path, keyword: error.keyword, message: messageOf(error, root, lookup) });
  }
  return issues;
}

/** Issues as one line, `a.b: message; c: message`, the first issue of each place only. */
export function describeJsonSchemaIssues(issues: JsonSchemaIssue[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const issue of issues) {
    const where = issue.path.length ? issue.path.join('.') : '(root)';
    if (seen.has(where)) continue;
    seen.add(where);
    parts.push(`${where}: ${issue.message}`);
  }
  return parts.join('; ');
}
