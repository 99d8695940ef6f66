// A question's form on a terminal: one prompt per field, typed from the schema (booleans, numbers, choices, text).
import type { Interface } from 'node:readline/promises';
import { clean } from './inbox-link';

type Field = Record<string, unknown> & { type?: string; title?: string; description?: string; default?: unknown; format?: string };
type Schema = { properties?: Record<string, Field>; required?: string[] };

function choicesOf(field: Field | undefined): unknown[] | undefined {
  if (!field) return undefined;
  if (Array.isArray(field.enum)) return field.enum;
  const list = (field.oneOf ?? field.anyOf) as { const?: unknown }[] | undefined;
  return Array.isArray(list) && list.every((o) => o && Object.hasOwn(o, 'const')) ? list.map((o) => o.const) : undefined;
}

/** One line per field, for the listing. */
export function describeFields(schema: Schema): string[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, field]) => {
    const choices = choicesOf(field) ?? choicesOf(field.items as Field | undefined);
    const kind = choices
      ? `${field.type === 'array' ? 'any of' : 'one of'} ${choices.map((c) => JSON.stringify(c)).join(', ')}`
      : (field.format ?? field.type ?? 'value');
    const extra = field.default !== undefined ? `, default ${JSON.stringify(field.default)}` : '';
    return clean(
      `- ${name}${required.has(name) ? ' (required)' : ''}: ${kind}${extra}${field.description ? ` — ${field.description}` : ''}`,
      true,
      300,
    );
  });
}

/** Asks each field in turn; an empty reply keeps the default, or leaves an optional field out. */
export async function askForm(rl: Interface, out: NodeJS.WriteStream, schema: Schema): Promise<Record<string, unknown>> {
  const required = new Set(schema.required ?? []);
  // Keyed by the server's field names: no prototype, so a field `__proto__` is a field like any other.
  const content: Record<string, unknown> = Object.create(null);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const label = clean(field.title ?? name, true, 200);
    for (;;) {
      const hint = field.default !== undefined ? ` [${clean(JSON.stringify(field.default), true, 100)}]` : '';
      const reply = (await rl.question(`${label}${required.has(name) ? '' : ' (optional)'}${hint}: `)).trim();
      if (reply === '') {
        if (field.default !== undefined) content[name] = field.default;
        else if (required.has(name)) {
          out.write('  This one is required.\n');
          continue;
        }
        break;
      }
      const value = read(field, reply);
      if (value.ok) {
        content[name] = value.value;
        break;
      }
      out.write(`  ${value.problem}\n`);
    }
  }
  return content;
}

function read(field: Field, reply: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  const choices = choicesOf(field);
  const itemChoices = choicesOf(field.items as Field | undefined);
  if (field.type === 'array' && itemChoices) {
    const picked = reply
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = picked.find((p) => !itemChoices.map(String).includes(p));
    if (bad) return { ok: false, problem: `Choose from ${itemChoices.join(', ')} (comma-separated)` };
    return { ok: true, value: picked.map((p) => itemChoices.find((c) => String(c) === p)) };
  }
  if (choices) {
    const found = choices.find((c) => String(c) === reply);
    return found === undefined ? { ok: false, problem: `Choose one of ${choices.join(', ')}` } : { ok: true, value: found };
  }
  if (field.type === 'boolean') {
    if (/^(y|yes|true)$/i.test(reply)) return { ok: true, value: true };
    if (/^(n|no|false)$/i.test(reply)) return { ok: true, value: false };
    return { ok: false, problem: 'Answer yes or no' };
  }
  if (field.type === 'number' || field.type === 'integer') {
    const n = Number(reply);
    if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n)))
      return { ok: false, problem: `Enter ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
    return { ok: true, value: n };
  }
  return { ok: true, value: reply };
}
