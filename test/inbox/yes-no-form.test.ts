// Which forms get one-click accept and decline links (a yes/no form), and what the accept link answers.
import { describe, expect, it } from 'vitest';
import { yesNoContent } from '../../src/inbox/action-links';

const form = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('a yes/no form', () => {
  it('is a form with no fields, or one boolean, or one string with a single allowed value', () => {
    expect(yesNoContent({ type: 'object' })).toEqual({});
    expect(yesNoContent(form({}))).toEqual({});
    expect(yesNoContent(form({ approve: { type: 'boolean' } }))).toEqual({ approve: true });
    expect(yesNoContent(form({ go: { type: 'string', enum: ['ship it'] } }))).toEqual({ go: 'ship it' });
    expect(yesNoContent(form({ go: { type: 'string', oneOf: [{ const: 'yes', title: 'Yes' }] } }))).toEqual({ go: 'yes' });
  });

  it('is not any other form', () => {
    expect(yesNoContent(form({ approve: { type: 'boolean' }, by: { type: 'string' } }))).toBeUndefined();
    expect(yesNoContent(form({ pick: { type: 'string', enum: ['a', 'b'] } }))).toBeUndefined();
    expect(yesNoContent(form({ name: { type: 'string' } }))).toBeUndefined();
    expect(yesNoContent(form({ n: { type: 'number', enum: [1] } }))).toBeUndefined();
    expect(yesNoContent(form({ tags: { type: 'array', items: { type: 'string', enum: ['x'] } } }))).toBeUndefined();
    expect(yesNoContent({ type: 'object', properties: [] })).toBeUndefined();
    expect(yesNoContent(form({ approve: null }))).toBeUndefined();
  });

  it('reads a `__proto__` field name as a name, never as the prototype', () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"boolean"}}}');
    const content = yesNoContent(schema)!;
    expect(Object.keys(content)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
  });
});
