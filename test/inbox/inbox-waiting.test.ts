// A call waiting for a person's answer in the inbox says so: the client hears a progress notification naming the
// question as the wait starts (here the official v1 client, whose form was never answered, so the question moved to
// the inbox), instead of silence until the call's ttl.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { policyServer, type PolicyServer } from './unanswered-helpers';

let s: PolicyServer;
beforeAll(async () => {
  s = await policyServer();
});
afterAll(() => s.close());

it('a call whose question waits in the inbox sends a progress notification saying so, then its answer', async () => {
  const client = new Client({ name: 'waiting', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => new Promise<never>(() => {}));
  await client.connect(
    new StreamableHTTPClientTransport(s.url, { requestInit: { headers: { authorization: await s.authorization('wes') } } }),
  );
  try {
    const heard: string[] = [];
    const call = client.callTool({ name: 'deploy', arguments: { version: '5.0' } }, CallToolResultSchema, {
      onprogress: (progress) => heard.push(progress.message ?? ''),
    });
    const person = await s.person('wes');
    const q = await person.waitFor('Deploy 5.0?', true);
    await expect.poll(() => heard).toEqual(['Waiting for an answer in the inbox: Deploy 5.0?']);
    await person.answer(q.id, { action: 'accept', content: { approve: true, by: 'inbox' } });
    expect((await call).structuredContent).toEqual({ deployed: true, by: 'inbox' });
  } finally {
    await client.close();
  }
});
