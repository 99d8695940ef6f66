// Not on the docs page: the reference section's server.ts has no test there, so this one runs it with parley-mcp/testing.
import { test, expect } from 'parley-mcp/testing';

test('closes the ticket only on an accepted confirm', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
  expect((await mcp.tools.call('close_ticket', { id: 'T-1' })).json()).toEqual({ closed: true, id: 'T-1' });
  mcp.onElicitation(() => ({ action: 'accept', content: { confirm: false } }));
  expect((await mcp.tools.call('close_ticket', { id: 'T-1' })).json()).toEqual({ closed: false });
});
