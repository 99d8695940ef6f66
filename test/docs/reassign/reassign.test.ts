import { test, expect } from 'parley-mcp/testing';

const reassign = (inputResponses?: Record<string, unknown>, requestState?: string) =>
  ({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'reassign_ticket',
      arguments: { id: 'T-2' },
      ...(inputResponses ? { inputResponses } : {}),
      ...(requestState ? { requestState } : {}),
    },
  }) as const;

test('each question gets the next key', async ({ mcp }) => {
  const team = { action: 'accept', content: { team: 'billing' } };

  const first = await mcp.raw.request(reassign());
  expect(Object.keys(first.result.inputRequests)).toEqual(['elicitation-1']);

  const second = await mcp.raw.request(reassign({ 'elicitation-1': team }));
  expect(second.result.inputRequests['elicitation-2'].params.message).toBe('Which billing agent?');

  const done = await mcp.raw.request(
    reassign({ 'elicitation-1': team, 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } }),
  );
  expect(done.result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
});

test('requestState carries the earlier answers', async ({ mcp }) => {
  const first = await mcp.raw.request(reassign());
  const second = await mcp.raw.request(
    reassign({ 'elicitation-1': { action: 'accept', content: { team: 'billing' } } }, first.result.requestState),
  );
  const done = await mcp.raw.request(
    reassign({ 'elicitation-2': { action: 'accept', content: { agent: 'Priya' } } }, second.result.requestState),
  );
  expect(done.result.structuredContent).toEqual({ reassigned: true, id: 'T-2', team: 'billing', agent: 'Priya' });
});
