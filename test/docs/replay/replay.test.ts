import { test, expect } from 'parley-mcp/testing';

test('one call, two runs of execute()', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
  const result = await mcp.tools.call('close_ticket', { id: 'T-1' });
  expect(result.json()).toEqual({ closed: true, auditEntries: 2 });
});
