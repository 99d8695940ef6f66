import { test, expect } from 'parley-mcp/testing';

test('closes the ticket when the user confirms', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true, note: 'Fixed in 2.3' } }));
  const result = await mcp.tools.call('close_ticket', { id: 'T-1' });
  expect(result.json()).toEqual({ closed: true, id: 'T-1', note: 'Fixed in 2.3' });
});

test('leaves it open when the user declines', async ({ mcp }) => {
  mcp.onElicitation(() => ({ action: 'decline' }));
  const result = await mcp.tools.call('close_ticket', { id: 'T-1' });
  expect(result.json()).toEqual({ closed: false, reason: 'The user chose decline' });
});

test('the form names the ticket', async ({ mcp }) => {
  let asked: any;
  mcp.onElicitation((request) => {
    asked = request;
    return { action: 'cancel' };
  });
  await mcp.tools.call('close_ticket', { id: 'T-7' });
  expect(asked.message).toContain('T-7');
  expect(asked.requestedSchema.required).toEqual(['confirm']);
});
