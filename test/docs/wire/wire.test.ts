import { test, expect } from 'parley-mcp/testing';

const closeT1 = (extra: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'close_ticket', arguments: { id: 'T-1' }, ...extra } }) as const;

test('the first request comes back input_required', async ({ mcp }) => {
  const first = await mcp.raw.request(closeT1());
  expect(first.result.resultType).toBe('input_required');
  expect(first.result.inputRequests['elicitation-1']).toMatchObject({
    method: 'elicitation/create',
    params: { message: 'Close ticket T-1?' },
  });
  expect(first.result.requestState).toEqual(expect.any(String));
});

test('sending the answer back completes the call', async ({ mcp }) => {
  const first = await mcp.raw.request(closeT1());
  const second = await mcp.raw.request(
    closeT1({
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } },
      requestState: first.result.requestState,
    }),
  );
  expect(second.result.resultType).toBe('complete');
  expect(second.result.structuredContent).toEqual({ closed: true, id: 'T-1' });
});
