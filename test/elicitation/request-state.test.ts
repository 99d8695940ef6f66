// What requestState binds a round to: the arguments' digest is the same for the same arguments in any key order.
import { describe, expect, it } from 'vitest';
import { canonicalJson, digestArguments } from '../../src/elicitation/request-state';

describe('the arguments a requestState is bound to', () => {
  it('writes JSON with its keys sorted at every level, and arrays in their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson({ 'é"': 'line\nbreak' })).toBe('{"é\\"":"line\\nbreak"}');
    expect(canonicalJson({ gone: undefined })).toBe('{"gone":null}');
  });

  it('gives one digest for the same arguments in any order, another for other arguments; long ones hashed', async () => {
    expect(await digestArguments({ id: 'T-1', force: true })).toBe(await digestArguments({ force: true, id: 'T-1' }));
    expect(await digestArguments({ id: 'T-1' })).toBe('json:{"id":"T-1"}');
    expect(await digestArguments({ id: 'T-2' })).not.toBe(await digestArguments({ id: 'T-1' }));
    const long = { text: 'x'.repeat(200) };
    expect(await digestArguments(long)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await digestArguments({ ...long, more: 1 })).not.toBe(await digestArguments(long));
  });
});
