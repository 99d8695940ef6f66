// The fixture's default: with no server.ts in the folder, the test gets main.ts's server.
import { expect, test } from 'parley-mcp/testing';

test('finds main.ts next to the test', async ({ mcp }) => {
  expect(await mcp.tools.list()).toContainTool('ping_main');
  expect(await mcp.tools.call('ping_main')).toHaveTextContent('pong from main.ts');
});
