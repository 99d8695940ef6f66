// parley-mcp/testing's fixture: naming the server explicitly, choosing capabilities, and how it finds a server module.
import { describe } from 'vitest';
import { connectMcp, expect, test } from 'parley-mcp/testing';
import { App, FrontMcp, Tool, ToolContext, z } from 'parley-mcp';
import { config } from '../../examples/help-desk/server';
import { serverOf } from '../../src/testing/server-module';

// In a describe block, as a file-level override would stay on the shared test object for the next files of a worker
// (the unit project does not isolate its files); at a file's top level it names the server for the file (docs/testing.md).
describe('a server named with test.override', () => {
  test.override({ mcpOptions: { server: config } });

  test('test.override names the server for the block', async ({ mcp }) => {
    expect(await mcp.tools.list()).toContainTool('delete_ticket');
  });

  test('the default client declares form and url, so URL-mode questions reach the handler', async ({ mcp }) => {
    mcp.onElicitation((request) => ({ action: request.mode === 'url' ? 'accept' : 'decline' }));
    expect((await mcp.tools.call('connect_billing')).json()).toEqual({ connected: true });
  });

  describe('with other capabilities', () => {
    test.override({ mcpOptions: { server: config, capabilities: { elicitation: { form: {} } } } });

    test('a describe block can declare less', async ({ mcp }) => {
      await expect(mcp.tools.call('connect_billing')).rejects.toMatchObject({ code: -32021 });
    });
  });

  test('raw.request fills in the envelope and returns errors as responses', async ({ mcp }) => {
    const response = await mcp.raw.request({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nope', arguments: {} } });
    expect(response).toHaveErrorCode(-32602);
    expect(response.id).toBe(7);
    expect(await mcp.raw.request({ method: 'tools/list' })).toBeSuccessful();
  });

  test('connectMcp opens a second client inside one test', async ({ mcp }) => {
    const other = await connectMcp(config, { capabilities: {} });
    try {
      expect((await other.tools.call('close_ticket', { id: 'T-1' }))._meta).toHaveProperty('elicitationPending');
      mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
      expect((await mcp.tools.call('close_ticket', { id: 'T-1' })).json()).toMatchObject({ closed: true });
    } finally {
      await other.close();
    }
  });
});

describe('which export of a server module is the server', () => {
  @Tool({ name: 't', inputSchema: { x: z.string().optional() } })
  class T extends ToolContext {
    execute() {
      return 'ok';
    }
  }
  @App({ id: 'a', tools: [T] })
  class A {}
  const cfg = { info: { name: 's', version: '1' }, apps: [A] };
  @FrontMcp(cfg)
  class One {}
  @FrontMcp(cfg)
  class Two {}

  test('the default export when it is a @FrontMcp class, else config, else the one decorated class', () => {
    expect(serverOf({ default: One, config: { other: true } }, 'x.ts')).toBe(One);
    expect(serverOf({ default: () => 1, config: cfg }, 'x.ts')).toBe(cfg);
    expect(serverOf({ Server: Two, helper: () => 1 }, 'x.ts')).toBe(Two);
  });

  test('a module with no server, or two, is a clear error', () => {
    expect(() => serverOf({ helper: () => 1 }, 'x.ts')).toThrow('x.ts exports no @FrontMcp class and no `config`');
    expect(() => serverOf({ One, Two }, 'x.ts')).toThrow('exports 2 @FrontMcp classes');
  });
});
