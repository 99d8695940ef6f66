// Tools, prompts and resources carry what the spec allows (title, icons, _meta as written, execution), the server
// declares its extensions, and an MCP App (a tool naming its ui:// resource) round-trips through the official v2 client
// on both eras, read with the official ext-apps helpers.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  getToolUiResourceUri,
  type McpUiResourceMeta,
  type McpUiToolMeta,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID } from '@modelcontextprotocol/ext-apps/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, createDirect, Prompt, PromptContext, Resource, ResourceContext, Tool, ToolContext, z, type ToolOptions } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';

const BOARD = 'ui://desk/board.html';
const ICON = { src: 'https://example.com/desk.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' as const };
const TOOL_META = { ui: { resourceUri: BOARD, visibility: ['model', 'app'] } satisfies McpUiToolMeta, 'example.com/build': 7 };
const RESOURCE_META = { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } satisfies McpUiResourceMeta };

@Tool({
  name: 'show_board',
  title: 'Show the board',
  description: 'Shows the ticket board.',
  inputSchema: { team: z.string() },
  icons: [ICON],
  _meta: TOOL_META,
  execution: { taskSupport: 'optional' },
})
class ShowBoard extends ToolContext {
  execute({ team }: { team: string }) {
    return { team, open: 3 };
  }
}

@Resource({ uri: BOARD, name: 'Board', mimeType: RESOURCE_MIME_TYPE, icons: [ICON], _meta: RESOURCE_META })
class Board extends ResourceContext {
  execute() {
    return '<!doctype html><title>Board</title><main id="board"></main>';
  }
}

@Prompt({ name: 'triage', title: 'Triage', icons: [ICON], _meta: { 'example.com/kind': 'triage' } })
class Triage extends PromptContext {
  execute() {
    return 'Triage the open tickets.';
  }
}

@App({ id: 'apps', tools: [ShowBoard], resources: [Board], prompts: [Triage] })
class Apps {}

const UI_EXTENSION = { mimeTypes: [RESOURCE_MIME_TYPE] };
let server: RunningServer;
beforeAll(async () => {
  server = await serve(
    // Elicitation on: a tool that may run as a task needs the store tasks are kept in.
    {
      info: { name: 'apps', version: '1.0.0' },
      apps: [Apps],
      extensions: { [EXTENSION_ID]: UI_EXTENSION },
      elicitation: { enabled: true },
    },
    { port: 0 },
  );
});
afterAll(() => server?.close());

async function connect(era: 'modern' | 'legacy') {
  const client = new Client(
    { name: 'app-host', version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return client;
}

describe.each(['modern', 'legacy'] as const)('an MCP App, %s era', (era) => {
  it('declares the extension, lists the tool with its ui:// resource, and serves the resource', async () => {
    const client = await connect(era);
    // On 2026-07-28 the tasks extension beside it (show_board may run as a task); never on an older client's initialize.
    const tasks = era === 'modern' ? { 'io.modelcontextprotocol/tasks': {} } : {};
    expect(client.getServerCapabilities()?.extensions).toEqual({ [EXTENSION_ID]: UI_EXTENSION, ...tasks });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'show_board')!;
    // The v2 client keeps `execution` on the older era only: on 2026-07-28 it belongs to the tasks extension.
    const execution = era === 'legacy' ? { execution: { taskSupport: 'optional' } } : {};
    expect(tool).toMatchObject({ title: 'Show the board', icons: [ICON], _meta: TOOL_META, ...execution });
    const uri = getToolUiResourceUri(tool);
    expect(uri).toBe(BOARD);
    const listed = (await client.listResources()).resources.find((r) => r.uri === uri)!;
    expect(listed).toEqual({ uri: BOARD, name: 'Board', mimeType: RESOURCE_MIME_TYPE, icons: [ICON], _meta: RESOURCE_META });
    const read = await client.readResource({ uri: uri! });
    expect(read.contents).toEqual([{ uri: BOARD, mimeType: RESOURCE_MIME_TYPE, text: expect.stringContaining('id="board"') }]);
    expect((await client.callTool({ name: 'show_board', arguments: { team: 'ops' } })).structuredContent).toEqual({ team: 'ops', open: 3 });
    const prompt = (await client.listPrompts()).prompts.find((p) => p.name === 'triage');
    expect(prompt).toEqual({ name: 'triage', title: 'Triage', icons: [ICON], _meta: { 'example.com/kind': 'triage' } });
    await client.close();
  });
});

describe('what a list could not carry fails at startup', () => {
  const startWith = (options: Partial<ToolOptions>, extensions?: Record<string, Record<string, unknown>>) => {
    @Tool({ name: 'odd', ...options })
    class Odd extends ToolContext {
      execute() {
        return 'ran';
      }
    }
    @App({ id: 'odd', tools: [Odd] })
    class OddApp {}
    return createDirect({ info: { name: 'o', version: '1.0.0' }, apps: [OddApp], ...(extensions ? { extensions } : {}) });
  };

  it.each([
    [{ icons: [{ src: 'javascript:alert(1)' }] }, /Tool "odd": icons\[0\]: an icon is \{ src, .*its src an https URL or a data: URI/],
    [
      { icons: [{ src: 'https://example.com/a.png', theme: 'blue' }] },
      /Tool "odd": icons\[0\]: an icon is .*theme\?: 'light' \| 'dark' \}/,
    ],
    [{ icons: { src: 'https://example.com/a.png' } }, /Tool "odd": icons: an icon is/],
    [{ execution: { taskSupport: 'always' } }, /Tool "odd": execution\.taskSupport must be 'forbidden', 'optional' or 'required'/],
    [{ _meta: 'ui' }, /Tool "odd": _meta must be an object/],
    [{ _meta: { big: 10n } }, /Tool "odd": _meta cannot be written as JSON/],
  ])('refuses %o', async (options, message) => {
    await expect(startWith(options as Partial<ToolOptions>)).rejects.toThrow(message);
  });

  it('an extension id that is not vendor/name', async () => {
    await expect(startWith({}, { ui: {} })).rejects.toThrow(
      /extensions\.ui: an extension id is vendor\/name, e\.g\. io\.modelcontextprotocol\/ui/,
    );
  });
});
