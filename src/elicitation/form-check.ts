// Checks content against a hand-written JSON Schema form (the flat subset elicitation allows), through the one JSON
// Schema validator, and says what is wrong field by field in the words the form's users see.
import { compileJsonSchema, optionsOf, type JsonSchemaCheck, type JsonSchemaIssue } from '../model';

// A form's own words for what the validator found, by keyword; a field reports its first problem in this order.
const ORDER = ['type', 'items', 'minItems', 'maxItems', 'const', 'enum', 'oneOf', 'anyOf', 'format'];
const rank = (issue: JsonSchemaIssue) => {
  // An issue below the field (an item of a multi-select) ranks as `items`.
  const at = issue.path.length > 1 ? 1 : ORDER.indexOf(issue.keyword);
  return at === -1 ? ORDER.length : at;
};

// Forms made from Zod schemas are frozen and shared by every question that uses them: compiled once. A hand-written
// form is the caller's own object, read again each time.
const checks = new WeakMap<object, JsonSchemaCheck>();

function checkOf(schema: Record<string, unknown>): JsonSchemaCheck {
  const hit = checks.get(schema);
  if (hit) return hit;
  // A format the validator does not know is not checked, as JSON Schema has it.
  const check = compileJsonSchema(schema, 'known');
  if (Object.isFrozen(schema)) checks.set(schema, check);
  return check;
}

/**
 * Returns a description of what is wrong, or undefined when the content fits. Only own keys count, of the content and
 * of the schema: a field named `constructor` is not answered by Object.prototype, nor checked against it.
 */
export function checkFlatForm(content: unknown, schema: Record<string, unknown>): string | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return '(root): expected an object';
  // A field left undefined is not answered (JSON would not carry it).
  const values = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== undefined));
  let issues: JsonSchemaIssue[];
  try {
    issues = checkOf(schema)(values);
  } catch (error) {
    return `(root): the form cannot be checked (${(error as Error).message})`;
  }
  if (!issues.length) return undefined;
  // One problem per field: missing ones first, then the answered ones in the order they were given.
  const first = new Map<string, JsonSchemaIssue>();
  for (const issue of issues) {
    const name = issue.path[0] ?? '(root)';
    const kept = first.get(name);
    if (!kept || rank(issue) < rank(kept)) first.set(name, issue);
  }
  const order = Object.keys(values);
  const place = ([name, issue]: [string, JsonSchemaIssue]) => (issue.keyword === 'required' ? -1 : order.indexOf(name));
  const fields = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return [...first]
    .sort((a, b) => place(a) - place(b))
    .map(([name, issue]) => `${name}: ${wordsFor(issue, Object.hasOwn(fields, name) ? fields[name] : undefined)}`)
    .join('; ');
}

function wordsFor(issue: JsonSchemaIssue, field: Record<string, unknown> | undefined): string {
  const { keyword } = issue;
  if (field?.type === 'array' && (issue.path.length > 1 || keyword === 'type')) return 'expected an array of the listed options';
  if (keyword === 'minItems' || keyword === 'maxItems') return 'wrong number of choices';
  const options = keyword === 'const' || keyword === 'enum' || keyword === 'oneOf' || keyword === 'anyOf' ? optionsOf(field) : undefined;
  if (options) return `expected one of ${options.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}
