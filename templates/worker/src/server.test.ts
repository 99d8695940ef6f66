// npm test: the server in-process (parley-mcp/testing finds server.ts next to this file), a question answered by the test.
import { expect, test } from 'parley-mcp/testing';

test('greets the person by the name they give', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { name: 'Ada' } }));
  const result = await mcp.tools.call('greet', {});
  expect(result.json()).toEqual({ greeting: 'Hello, Ada!' });
});

test('still answers when the person declines', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'decline' }));
  const result = await mcp.tools.call('greet', {});
  expect(result.json()).toEqual({ greeting: 'Hello, whoever you are.' });
});
