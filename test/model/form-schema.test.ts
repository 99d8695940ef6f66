// The form schema elicit() sends: made once per Zod schema and shared read-only, a JSON Schema object read each time.
import { describe, expect, it } from 'vitest';
import { z } from 'parley-mcp';
import { toFormSchema } from '../../src/model/schema';

describe('toFormSchema', () => {
  it('makes one frozen form per Zod schema, which nobody can change for the next question', () => {
    const schema = z.object({ team: z.enum(['billing', 'support']), note: z.string().optional() });
    const form = toFormSchema(schema);
    expect(form).toEqual({
      type: 'object',
      properties: { team: { type: 'string', enum: ['billing', 'support'] }, note: { type: 'string' } },
      required: ['team'],
    });
    expect(toFormSchema(schema)).toBe(form);
    expect(() => ((form.properties as Record<string, unknown>).team = {})).toThrow(TypeError);
    expect(() => (form.required as string[]).push('note')).toThrow(TypeError);
    expect(toFormSchema(schema)).toEqual(form);
  });

  it('keeps a Zod shape apart from another with the same fields', () => {
    const a = { name: z.string() };
    const b = { name: z.number() };
    expect([toFormSchema(a).properties, toFormSchema(b).properties]).toEqual([{ name: { type: 'string' } }, { name: { type: 'number' } }]);
  });

  it('reads a JSON Schema object each time: a change the caller makes between questions is seen, and its object is never frozen', () => {
    const schema = { type: 'object' as const, properties: { name: { type: 'string' } } as Record<string, unknown> };
    expect(toFormSchema(schema).properties).toEqual({ name: { type: 'string' } });
    schema.properties.age = { type: 'number' };
    expect(toFormSchema(schema).properties).toEqual({ name: { type: 'string' }, age: { type: 'number' } });
    expect(Object.isFrozen(schema.properties)).toBe(false);
  });
});
