import { test, expect } from 'parley-mcp/testing';

test("2026-07-28 clients don't see the fallback tool", async ({ mcp }) => {
  expect(await mcp.tools.list()).not.toContainTool('sendElicitationResult');
});

test('the output schema also allows the fallback result', async ({ mcp }) => {
  const tool = (await mcp.tools.list()).find((t) => t.name === 'close_ticket');
  expect(tool?.outputSchema?.oneOf).toHaveLength(2);
  expect(tool?.outputSchema?.oneOf?.[1]).toMatchObject({ required: ['elicitationPending'] });
});

test('an unknown elicitId is an error', async ({ mcp }) => {
  const result = await mcp.tools.call('sendElicitationResult', { elicitId: 'elicit-123', action: 'accept', content: { confirm: true } });
  expect(result).toBeError();
  expect(result).toHaveTextContent('No pending elicitation found for ID: elicit-123');
});
