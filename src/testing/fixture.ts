// test(name, async ({ mcp }) => …): vitest's test with an `mcp` fixture connected to the server under test.
import { test as base } from 'vitest';
import type { ServerInput } from '../app';
import { connectMcp, type ConnectOptions, type McpTestClient } from './mcp';
import { serverNextTo } from './server-module';

export interface McpOptions extends ConnectOptions {
  /** The server under test: a config, a @FrontMcp class, or the URL of a running server. Default: server.ts, else main.ts, next to the test file. */
  server?: ServerInput | string;
}

/**
 * vitest's `test`, with `mcp`: Parley's client, connected to the server under test and closed after the test.
 * Change what it connects to for a file or a describe block with `test.override({ mcpOptions: { … } })`.
 * @example
 * test('closes the ticket', async ({ mcp }) => {
 *   mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
 *   expect((await mcp.tools.call('close_ticket', { id: 'T-1' })).json()).toMatchObject({ closed: true });
 * });
 */
export const test = base.extend<{ mcpOptions: McpOptions; mcp: McpTestClient }>({
  mcpOptions: {},
  mcp: async ({ task, mcpOptions }, use) => {
    const server = mcpOptions.server ?? (await serverNextTo(task.file.filepath));
    const mcp = await connectMcp(server, mcpOptions);
    try {
      await use(mcp);
    } finally {
      await mcp.close();
    }
  },
});
