// Not on the docs page: the troubleshooting server without `elicitation: { enabled: true }`, and the error it gives.
import { test, expect } from 'parley-mcp/testing';

test('this.elicit() fails the call with ELICITATION_DISABLED', async ({ mcp }) => {
  let asked = false;
  mcp.onElicitation(() => ((asked = true), { action: 'accept', content: { confirm: true } }));
  const result = await mcp.tools.call('close_ticket', { id: 'T-1' });
  expect(result).toBeError('ELICITATION_DISABLED');
  expect(result).toHaveTextContent('Elicitation is disabled in server configuration');
  expect(asked).toBe(false);
});
