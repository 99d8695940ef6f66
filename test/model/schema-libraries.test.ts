// The same tool written with Zod, Zod Mini, Valibot, ArkType and plain JSON Schema: the same tools/list JSON Schema, the
// same refusal of the same bad input, the same question asked and checked, through the official v2 client.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { App, createDirect, Prompt, PromptContext, type SchemaInput, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';

// A ticket: an id of at least two characters and an optional count. Each library's own converter gives its JSON Schema.
const TICKETS: Record<string, SchemaInput> = {
  zod: z.object({ id: z.string().min(2), count: z.number().optional() }),
  mini: zm.object({ id: zm.string().check(zm.minLength(2)), count: zm.optional(zm.number()) }),
  valibot: toStandardJsonSchema(v.object({ id: v.pipe(v.string(), v.minLength(2)), count: v.optional(v.number()) })),
  arktype: type({ id: 'string >= 2', 'count?': 'number' }),
  json: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { id: { type: 'string', minLength: 2 }, count: { type: 'number' } },
    required: ['id'],
  },
};
// The question each tool asks, and what execute() returns: a confirmation, and a summary of it.
const CONFIRMS: Record<string, SchemaInput> = {
  zod: z.object({ confirm: z.boolean() }),
  mini: zm.object({ confirm: zm.boolean() }),
  valibot: toStandardJsonSchema(v.object({ confirm: v.boolean() })),
  arktype: type({ confirm: 'boolean' }),
  json: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
};
// A prompt's arguments: a topic of at least three characters and an optional tone.
const TOPICS: Record<string, SchemaInput> = {
  zod: z.object({ topic: z.string().min(3), tone: z.string().optional() }),
  mini: zm.object({ topic: zm.string().check(zm.minLength(3)), tone: zm.optional(zm.string()) }),
  valibot: toStandardJsonSchema(v.object({ topic: v.pipe(v.string(), v.minLength(3)), tone: v.optional(v.string()) })),
  arktype: type({ topic: 'string >= 3', 'tone?': 'string' }),
  json: { type: 'object', properties: { topic: { type: 'string', minLength: 3 }, tone: { type: 'string' } }, required: ['topic'] },
};
const LIBRARIES = Object.keys(TICKETS);

const prompts = LIBRARIES.map((library) => {
  @Prompt({ name: `brief_${library}`, argumentsSchema: TOPICS[library] })
  class Brief extends PromptContext<{ topic: string; tone?: string }> {
    execute({ topic, tone }: { topic: string; tone?: string }) {
      return `Brief on ${topic}, ${tone ?? 'plainly'}.`;
    }
  }
  return Brief;
});

const tools = LIBRARIES.flatMap((library) => {
  @Tool({ name: `file_${library}`, inputSchema: TICKETS[library], outputSchema: CONFIRMS[library] })
  class File extends ToolContext {
    execute(input: { id: string; count?: number }) {
      // A count of 13 returns what the outputSchema refuses.
      return input.count === 13 ? { confirm: 'unlucky' } : { confirm: input.id.length > 2 };
    }
  }
  @Tool({ name: `ask_${library}` })
  class Ask extends ToolContext {
    async execute() {
      const answer = await this.elicit('Confirm?', CONFIRMS[library]!);
      return `${answer.status}: ${JSON.stringify(answer.content)}`;
    }
  }
  return [File, Ask];
});
@App({ id: 'libraries', tools, prompts })
class Libraries {}

let server: RunningServer;
let client: Client;
let answer: Record<string, unknown> = {};
beforeAll(async () => {
  server = await serve({ info: { name: 'libraries', version: '1.0.0' }, apps: [Libraries], elicitation: { enabled: true } }, { port: 0 });
  client = new Client(
    { name: 'libraries-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: answer }) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

const text = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;
/** The places a refusal names, in order: `id: …; count: …` gives ['id', 'count']. */
const places = (message: string) =>
  message
    .replace(/^[^:]*: /, '')
    .split('; ')
    .map((part) => part.split(': ')[0]);

describe.each(LIBRARIES)('the tool written with %s', (library) => {
  it('lists the JSON Schema every library agrees on', async () => {
    const listed = (await client.listTools()).tools.find((t) => t.name === `file_${library}`)!;
    expect(listed.inputSchema).toEqual(TICKETS.json);
    expect(listed.outputSchema).toBeDefined();
  });

  it('runs with arguments that fit, and gets its output checked', async () => {
    expect((await client.callTool({ name: `file_${library}`, arguments: { id: 'T-10' } })).structuredContent).toEqual({ confirm: true });
    const wrong = await client.callTool({ name: `file_${library}`, arguments: { id: 'T-1', count: 13 } });
    expect(wrong).toMatchObject({ isError: true, _meta: { code: 'INVALID_OUTPUT' } });
    expect(text(wrong)).toMatch(new RegExp(`^Tool "file_${library}" returned a result that does not match its outputSchema: confirm: `));
  });

  it('refuses bad arguments the same way, naming the same fields', async () => {
    for (const [args, named] of [
      [{ id: 7, count: 'x' }, ['id', 'count']],
      [{ count: 2 }, ['id']],
      [{ id: 'x' }, ['id']],
    ] as const) {
      const result = await client.callTool({ name: `file_${library}`, arguments: args });
      expect(result).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
      expect(text(result)).toMatch(new RegExp(`^Invalid arguments for tool "file_${library}": `));
      expect(places(text(result))).toEqual(named);
    }
  });

  it('asks with its schema as the form, and checks the answer against it', async () => {
    answer = { confirm: true };
    expect(text(await client.callTool({ name: `ask_${library}`, arguments: {} }))).toBe('accept: {"confirm":true}');
    answer = { confirm: 'yes' };
    const refused = await client.callTool({ name: `ask_${library}`, arguments: {} });
    expect(refused).toMatchObject({ isError: true, _meta: { code: 'INVALID_INPUT' } });
    expect(text(refused)).toMatch(/^Elicitation response content does not match the requested schema: confirm: /);
  });
});

describe.each(LIBRARIES)('the prompt whose arguments are written with %s', (library) => {
  it('lists its arguments from the schema, checks them, and runs with what fits', async () => {
    const listed = (await client.listPrompts()).prompts.find((p) => p.name === `brief_${library}`)!;
    expect(listed.arguments).toEqual([
      { name: 'topic', required: true },
      { name: 'tone', required: false },
    ]);
    const got = await client.getPrompt({ name: `brief_${library}`, arguments: { topic: 'billing' } });
    expect(got.messages[0]!.content).toEqual({ type: 'text', text: 'Brief on billing, plainly.' });
    const refused = client.getPrompt({ name: `brief_${library}`, arguments: { topic: 'no' } });
    await expect(refused).rejects.toThrow(new RegExp(`Invalid arguments for prompt "brief_${library}": topic: `));
    await expect(refused).rejects.toMatchObject({ code: -32602 });
  });
});

describe('a schema Parley cannot list', () => {
  const startWith = (inputSchema: SchemaInput) => {
    @Tool({ name: 'unlisted', inputSchema })
    class Unlisted extends ToolContext {
      execute() {
        return 'ran';
      }
    }
    @App({ id: 'unlisted', tools: [Unlisted] })
    class Unlisting {}
    return createDirect({ info: { name: 'u', version: '1.0.0' }, apps: [Unlisting] });
  };

  it('fails at startup naming the tool and what to install, for a Valibot schema without its converter', async () => {
    await expect(startWith(v.object({ id: v.string() }))).rejects.toThrow(
      /Tool "unlisted": a valibot schema carries no JSON Schema .*install @valibot\/to-json-schema and pass toStandardJsonSchema\(schema\)/,
    );
  });

  it('fails at startup for a schema that is not an object', async () => {
    await expect(startWith(type('string'))).rejects.toThrow(
      /Tool "unlisted": inputSchema must describe an object \(its JSON Schema has type "string"\)/,
    );
  });
});
