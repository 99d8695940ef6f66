import { test, expect } from 'parley-mcp/testing';
import { FrontMcpInstance } from 'parley-mcp';
import { config } from './main';

test('only the caller who was asked can answer, and the re-run is theirs', async () => {
  // createDirect()'s client can't show forms, so it gets the fallback.
  const server = await FrontMcpInstance.createDirect(config);
  const nour = { authContext: { user: { sub: 'nour' } } };
  const sam = { authContext: { user: { sub: 'sam' } } };

  const asked = await server.callTool('close_ticket', { id: 'T-1' }, nour);
  const { elicitId } = (asked._meta as { elicitationPending: { elicitId: string } }).elicitationPending;
  const answer = { elicitId, action: 'accept', content: { confirm: true } };

  await expect(server.callTool('sendElicitationResult', answer, sam)).rejects.toThrow(
    `Elicitation "${elicitId}" was not requested by this caller`,
  );
  expect((await server.callTool('sendElicitationResult', answer, nour)).structuredContent).toEqual({ closed: true, by: 'nour' });
  await server.dispose();
});
