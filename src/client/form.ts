// Rendering an elicitation request as text: the message, then one line per field of its flat schema.
import type { ElicitRequestParams } from './types';

/**
 * The lines a text client shows for a form request (docs/client.md, "Forms and gates").
 * @example renderForm({ message: 'Delete t3?', requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } } })
 * // ['Delete t3?', '  [boolean] confirm:']
 */
export function renderForm(params: ElicitRequestParams): string[] {
  const lines = [params.message];
  if (params.mode === 'url') return params.url ? [...lines, `  open: ${params.url}`] : lines;
  const schema = params.requestedSchema ?? {};
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  for (const [name, field] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    const label = field.title ?? name;
    const choices = Array.isArray(field.enum) ? ` (one of ${field.enum.join(', ')})` : '';
    lines.push(`  [${field.type}] ${label}${required.has(name) ? ' (required)' : ''}${choices}: ${field.description ?? ''}`.trimEnd());
  }
  return lines;
}
