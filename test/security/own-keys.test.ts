// The pieces under the matrix, each given objects JSON.parse made (so `__proto__` is an own key): reading JSON,
// merging answers, checking forms, reading capabilities, filling the CLI's form, and what zod 4 does with such keys.
import { describe, expect, it } from 'vitest';
import { z } from 'parley-mcp';
import { askForm } from '../../src/cli/inbox-form';
import { declaredModes } from '../../src/client/answer';
import { checkFlatForm } from '../../src/elicitation/form-check';
import { withRounds, type RoundOutcome } from '../../src/engine/round-call';
import { elicitationModes } from '../../src/elicitation/rounds';
import { ANONYMOUS } from '../../src/model/tool-types';
import { McpWireError, parseJson, withoutProtoKeys } from '../../src/protocol';
import { buildServer } from '../../src/app/build-server';
import { config, PROTOTYPE_NAMES } from './fixture';

const POLLUTED =
  '{"a":1,"__proto__":{"admin":true},"nested":[{"__proto__":{"admin":true},"b":2}],"deep":{"\\u005f_proto__":{"admin":true}}}';

describe('parseJson', () => {
  it('drops __proto__ keys at any depth, escaped or not, and keeps the rest', () => {
    const value = parseJson(POLLUTED) as any;
    expect(value).toEqual({ a: 1, nested: [{ b: 2 }], deep: {} });
    expect(Object.hasOwn(value, '__proto__') || Object.hasOwn(value.nested[0], '__proto__') || Object.hasOwn(value.deep, '__proto__')).toBe(
      false,
    );
    expect(Object.assign({}, value, value.nested[0], value.deep).admin).toBeUndefined();
    // Plain JSON.parse keeps the key, and Object.assign then sets a prototype: what parseJson is for.
    expect(Object.assign({}, JSON.parse(POLLUTED)).admin).toBe(true);
  });

  it('parses everything else as JSON.parse does, and throws what it throws', () => {
    for (const text of ['{"constructor":{"x":1},"toString":"s"}', '[1,"\\u00e9",{"a":null}]', '"__proto__"', '{"x":"__proto__"}', '3'])
      expect(parseJson(text)).toEqual(JSON.parse(text));
    expect(() => parseJson('{')).toThrow(SyntaxError);
  });
});

describe('withoutProtoKeys', () => {
  it('drops own __proto__ keys in plain objects and arrays, copying only what it changes', () => {
    const clean = { a: 1, list: [1, { b: 2 }], when: new Date(0) };
    expect(withoutProtoKeys(clean)).toBe(clean);
    const dirty = JSON.parse(POLLUTED);
    const result = withoutProtoKeys(dirty);
    expect(result).toEqual({ a: 1, nested: [{ b: 2 }], deep: {} });
    expect(Object.hasOwn(dirty, '__proto__')).toBe(true); // the caller's object is left as it was
    const map = new Map([['__proto__', 1]]);
    expect(withoutProtoKeys({ map }).map).toBe(map);
  });
});

describe('withRounds, given inputResponses with an own __proto__ key (as JSON.parse makes them)', () => {
  const ask = async (params: Record<string, unknown>) => {
    const server = await buildServer(config);
    return withRounds(
      server,
      { method: 'tools/call', name: 't', args: {}, params, auth: ANONYMOUS, capabilities: { elicitation: {} } },
      async (asker): Promise<RoundOutcome> => {
        const suspended = new Promise<'suspended'>((resolve) => asker.onSuspend(() => resolve('suspended')));
        const answered = asker
          .ask('elicitation-1', { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })
          .then(() => 'answered' as const);
        const outcome = await Promise.race([answered, suspended]);
        return outcome === 'answered' ? { kind: 'result', result: { answered: true } } : { kind: 'suspended' };
      },
    );
  };

  it('does not answer the question: the object does not become the answers’ prototype', async () => {
    const params = JSON.parse('{"inputResponses":{"__proto__":{"elicitation-1":{"action":"accept","content":{"confirm":true}}}}}');
    expect(await ask(params)).toMatchObject({ resultType: 'input_required' });
  });

  it('counts a __proto__ key against the cap like any other: 64 answers and one more is too many', async () => {
    const many = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k-${i}`, { action: 'decline' }]));
    const params = { inputResponses: { ...JSON.parse('{"__proto__":{"action":"decline"}}'), ...many } };
    await expect(ask(params)).rejects.toMatchObject({ code: -32602, message: 'Too many input responses (at most 64)' });
    await expect(ask(params)).rejects.toBeInstanceOf(McpWireError);
  });

  it.each(PROTOTYPE_NAMES)('never takes %s from Object.prototype as an answer', async (name) => {
    const server = await buildServer(config);
    const result = await withRounds(
      server,
      { method: 'tools/call', name: 't', args: {}, params: {}, auth: ANONYMOUS, capabilities: { elicitation: {} } },
      async (asker): Promise<RoundOutcome> => {
        expect(asker.known?.(name)).toBeUndefined();
        const suspended = new Promise<void>((resolve) => asker.onSuspend(resolve));
        void asker.ask(name, { message: 'q', requestedSchema: { type: 'object', properties: {} } });
        await suspended;
        return { kind: 'suspended' };
      },
    );
    expect(Object.keys(result.inputRequests as object)).toEqual([name]);
  });
});

describe('checkFlatForm', () => {
  it.each(PROTOTYPE_NAMES)('needs an own %s for a required field, and checks it against its own property only', (name) => {
    const schema = JSON.parse(
      `{"type":"object","properties":{${JSON.stringify(name)}:{"type":"boolean"}},"required":[${JSON.stringify(name)}]}`,
    );
    expect(checkFlatForm({}, schema)).toBe(`${name}: required`);
    expect(checkFlatForm(JSON.parse(`{${JSON.stringify(name)}:"no"}`), schema)).toBe(`${name}: expected boolean`);
    expect(checkFlatForm(JSON.parse(`{${JSON.stringify(name)}:true}`), schema)).toBeUndefined();
    // A field the schema does not have is not checked against Object.prototype's member of that name.
    expect(checkFlatForm(JSON.parse(`{${JSON.stringify(name)}:1}`), { type: 'object', properties: {} })).toBeUndefined();
    // A format that is a prototype name is no format: the value is not checked against it.
    expect(checkFlatForm({ s: 'x' }, { type: 'object', properties: { s: { type: 'string', format: name } } })).toBeUndefined();
  });
});

describe('capabilities', () => {
  it('count only their own url and form keys', () => {
    const inherited = Object.create({ url: {}, form: {} });
    expect(elicitationModes({ elicitation: inherited })).toEqual({ form: true, url: false });
    expect(declaredModes({ elicitation: inherited })).toEqual({ form: true, url: false });
    expect(elicitationModes({ elicitation: { url: {} } })).toEqual({ form: false, url: true });
    expect(declaredModes({ elicitation: { form: {}, url: {} } })).toEqual({ form: true, url: true });
  });
});

describe('parley inbox, filling a form a server sent', () => {
  it('keeps a field named __proto__ as a field: its default does not become the content’s prototype', async () => {
    const schema = JSON.parse(
      '{"properties":{"__proto__":{"type":"string","default":{"admin":true}},"constructor":{"type":"string"},"toString":{"type":"string"}}}',
    );
    const replies = ['', 'c', 't'];
    const rl = { question: async () => replies.shift() ?? '' } as never;
    const out = { write: () => true } as unknown as NodeJS.WriteStream;
    const content = await askForm(rl, out, schema);
    expect(Object.getPrototypeOf(content)).toBe(null);
    expect((content as { admin?: unknown }).admin).toBeUndefined();
    expect(Object.keys(content)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(JSON.parse(JSON.stringify(content))).toEqual(JSON.parse('{"__proto__":{"admin":true},"constructor":"c","toString":"t"}'));
  });
});

describe('zod 4 with an own __proto__ key from JSON.parse (pinned: an upgrade that changes this fails here)', () => {
  const input = () => JSON.parse('{"confirm":true,"__proto__":{"admin":true},"constructor":{"x":1}}');
  const safe = (data: unknown) => {
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data as object, '__proto__')).toBe(false);
    expect((data as { admin?: unknown }).admin).toBeUndefined();
  };

  it('z.object drops it with the other unknown keys, defaults filled in', () => {
    const data = z.object({ confirm: z.boolean(), n: z.number().default(3) }).parse(input());
    expect(data).toEqual({ confirm: true, n: 3 });
    safe(data);
  });

  it('z.looseObject and z.record keep the other keys but drop __proto__', () => {
    for (const schema of [z.looseObject({ confirm: z.boolean() }), z.record(z.string(), z.unknown())]) {
      const data = schema.parse(input()) as Record<string, unknown>;
      expect(Object.keys(data).sort()).toEqual(['confirm', 'constructor']);
      safe(data);
    }
  });

  it('z.strictObject refuses it', () => {
    expect(z.strictObject({ confirm: z.boolean() }).safeParse(input()).success).toBe(false);
  });
});
