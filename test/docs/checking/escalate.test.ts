import { test, expect } from 'parley-mcp/testing';

test('a valid answer escalates the ticket', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { team: 'security', reason: 'Customer data may be exposed' } }));
  const result = await mcp.tools.call('escalate_ticket', { id: 'T-3' });
  expect(result.json()).toEqual({ escalated: true, id: 'T-3', team: 'security', reason: 'Customer data may be exposed' });
});

test("an answer that doesn't fit the schema is rejected", async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { team: 'sales', reason: 'now' } }));
  const result = await mcp.tools.call('escalate_ticket', { id: 'T-3' });
  expect(result).toBeError('INVALID_INPUT');
  expect(result).toHaveTextContent('does not match the requested schema');
});
