// Plain JSON Schema is checked: a tool's arguments and structured output, and refused at startup when the validator
// cannot check it; a Zod tool and a JSON Schema tool refuse the same bad input the same way, through the official client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, createDirect, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { checkFlatForm } from '../../src/elicitation/form-check';
import { compileJsonSchema, describeJsonSchemaIssues } from '../../src/model/json-schema';

const TICKET = {
  type: 'object',
  properties: {
    id: { type: 'string', minLength: 2 },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['id'],
} as const;

@Tool({
  name: 'file_json',
  inputSchema: TICKET,
  outputSchema: { type: 'object', properties: { filed: { type: 'string' } }, required: ['filed'] },
})
class FileJson extends ToolContext {
  execute(input: Record<string, unknown>) {
    // A priority of 5 returns what the outputSchema refuses.
    return input.priority === 5 ? { filed: 5 } : { filed: input.id };
  }
}

@Tool({
  name: 'file_zod',
  inputSchema: { id: z.string().min(2), priority: z.number().int().min(1).max(5).optional(), tags: z.array(z.string()).optional() },
  outputSchema: { filed: z.string() },
})
class FileZod extends ToolContext {
  execute(input: { id: string; priority?: number }) {
    return input.priority === 5 ? { filed: 5 as unknown as string } : { filed: input.id };
  }
}

@App({ id: 'schemas', tools: [FileJson, FileZod] })
class Schemas {}

let server: RunningServer;
let client: Client;
beforeAll(async () => {
  server = await serve({ info: { name: 'schemas', version: '1.0.0' }, apps: [Schemas] }, { port: 0 });
  client = new Client({ name: 'schema-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
const text = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('a tool with a plain JSON Schema', () => {
  it.each([
    [{ priority: 2 }, 'id'],
    [{ id: 7 }, 'id'],
    [{ id: 'x' }, 'id'],
    [{ id: 'T-1', priority: 9 }, 'priority'],
    [{ id: 'T-1', priority: 1.5 }, 'priority'],
    [{ id: 'T-1', tags: ['a', 3] }, 'tags.1'],
  ])('refuses %j as the Zod tool does: a tool error with INVALID_INPUT naming %s', async (args, field) => {
    const json = await call('file_json', args);
    const zod = await call('file_zod', args);
    for (const [result, name] of [
      [json, 'file_json'],
      [zod, 'file_zod'],
    ] as const) {
      expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
      expect(text(result)).toMatch(new RegExp(`^Invalid arguments for tool "${name}": ${field.replace('.', '\\.')}: `));
    }
  });

  it('says what is wrong in plain words, each field once, runs what fits, and is listed as written', async () => {
    expect((await call('file_json', { id: 'T-1', priority: 2 })).structuredContent).toEqual({ filed: 'T-1' });
    expect((await client.listTools()).tools.find((t) => t.name === 'file_json')!.inputSchema).toEqual(TICKET);
    expect(text(await call('file_json', { id: 7, priority: 0, tags: 'a' }))).toBe(
      'Invalid arguments for tool "file_json": id: expected string; priority: out of range; tags: expected array',
    );
    expect(text(await call('file_json', {}))).toBe('Invalid arguments for tool "file_json": id: required');
  });

  it('catches structured output that does not fit its outputSchema, as for a Zod tool', async () => {
    for (const name of ['file_json', 'file_zod']) {
      const result = await call(name, { id: 'T-1', priority: 5 });
      expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_OUTPUT' } });
      expect(text(result)).toMatch(new RegExp(`^Tool "${name}" returned a result that does not match its outputSchema: filed: `));
    }
  });
});

describe('a JSON Schema the validator cannot check', () => {
  const startWith = (inputSchema: Record<string, unknown>) => {
    @Tool({ name: 'unchecked', inputSchema: inputSchema as { type: 'object' } })
    class Unchecked extends ToolContext {
      execute() {
        return 'ran';
      }
    }
    @App({ id: 'unchecked', tools: [Unchecked] })
    class Unchecking {}
    return () => createDirect({ info: { name: 'u', version: '1.0.0' }, apps: [Unchecking] });
  };

  it.each([
    [
      { properties: { a: { type: 'string', format: 'phone' } } },
      /Tool "unchecked": .*format "phone" at #\/properties\/a is not one the validator checks: use one of date, .*email/,
    ],
    [
      { properties: { a: { $ref: '#/$defs/missing' } } },
      /Tool "unchecked": .*\$ref "#\/\$defs\/missing" at #\/properties\/a names no schema/,
    ],
    [{ properties: { a: { $ref: 'https://example.com/a.json' } } }, /Tool "unchecked": .*\$ref "https:\/\/example.com\/a.json"/],
    [
      { properties: { a: { type: 'string', pattern: '(' } } },
      /Tool "unchecked": .*pattern at #\/properties\/a is not a regular expression/,
    ],
    [{ patternProperties: { '[': {} } }, /Tool "unchecked": .*patternProperties "\[" at # is not a regular expression/],
    [
      { $schema: 'https://example.com/my-dialect' },
      /Tool "unchecked": .*\$schema "https:\/\/example.com\/my-dialect" is not a dialect the validator knows/,
    ],
    [{ $defs: { a: { $dynamicAnchor: 'x' } } }, /Tool "unchecked": .*\$dynamicAnchor at #\/\$defs\/a is not checked by the validator/],
  ])('fails at startup, naming the tool: %j', async (schema, message) => {
    await expect(startWith({ type: 'object', ...schema })()).rejects.toThrow(message);
  });

  it('starts with what it can check: known formats, local $refs, the drafts by name', async () => {
    const starting = startWith({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { mail: { type: 'string', format: 'email' } },
      properties: { to: { $ref: '#/definitions/mail' }, enum: { type: 'string', enum: ['not', 'a schema'] } },
    })();
    const direct = await starting;
    expect(await direct.callTool('unchecked', { to: 'a@example.com' })).toMatchObject({ content: [{ text: 'ran' }] });
    const wrong = await direct.callTool('unchecked', { to: 'nobody' });
    expect(wrong.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool "unchecked": to: expected a valid email' }]);
  });
});

describe('issues', () => {
  const describeOf = (schema: Record<string, unknown>, value: unknown) =>
    describeJsonSchemaIssues(compileJsonSchema(schema, 'strict')(value));

  it('name nested places, missing properties where they would be, and refused extras', () => {
    const schema = {
      type: 'object',
      properties: { owner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false } },
    };
    expect(describeOf(schema, { owner: { nick: 'x' } })).toBe('owner.name: required; owner.nick: not allowed');
    expect(describeOf({ type: 'object', properties: { 'a/b': { type: 'number' } } }, { 'a/b': 'x' })).toBe('a/b: expected number');
  });

  it('say one of the choices, or that none of the shapes matched, not each branch', () => {
    expect(describeOf({ oneOf: [{ const: 'low' }, { const: 'high' }] }, 'mid')).toBe('(root): expected one of "low", "high"');
    expect(describeOf({ anyOf: [{ type: 'string' }, { type: 'object', required: ['a'] }] }, 3)).toBe('(root): matches no allowed shape');
  });

  it('leave the caller’s schema as written', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } };
    const before = JSON.stringify(schema);
    compileJsonSchema(Object.freeze(schema), 'strict')({ a: 'x' });
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(['$ref']);
  });
});

describe('a hand-written form', () => {
  it('is checked by the same validator: what the old hand-written checks let through is refused, in the form’s words', () => {
    const form = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[0-9]+$' }, size: { type: 'number', multipleOf: 5 }, team: { enum: ['a', 'b'] } },
      required: ['team'],
    };
    expect(checkFlatForm({ code: 'abc', size: 7 }, form)).toBe(
      'team: required; code: does not match the pattern ^[0-9]+$; size: expected a multiple of 5',
    );
    expect(checkFlatForm({ code: '12', size: 10, team: 'c' }, form)).toBe('team: expected one of "a", "b"');
  });
});
