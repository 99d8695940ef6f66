// The official v1 client over stdio without the elicitation capability: its calls still get their progress and log
// notifications; only a question takes the fallback (a pending result, answered with sendElicitationResult).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let client: Client;
const logs: unknown[] = [];

beforeAll(async () => {
  client = new Client({ name: 'v1-stdio-plain', version: '1.0.0' }, { capabilities: {} });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=parley-source', '--import', 'tsx', 'test/fixtures/stdio-server.ts'],
      stderr: 'pipe',
    }),
  );
  await client.setLoggingLevel('info');
});
afterAll(() => client.close());

describe('the official v1 client over stdio with capabilities: {}', () => {
  it('gets the progress and log lines of a tool that asks nothing, and its result', async () => {
    const progress: Progress[] = [];
    logs.length = 0;
    const result = await client.callTool({ name: 'report_and_ask', arguments: { ask: false } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(result.structuredContent).toEqual({ asked: false });
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half way' }]);
    expect(logs).toEqual(['working on it']);
  });

  it('a question takes the fallback; the rerun streams its progress too', async () => {
    const progress: Progress[] = [];
    const asked = await client.callTool({ name: 'report_and_ask', arguments: { ask: true } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    const pending = (asked._meta as { elicitationPending: { elicitId: string; message: string } }).elicitationPending;
    expect(pending.message).toBe('Go on?');
    expect(progress).toEqual([{ progress: 1, total: 2, message: 'half way' }]);
    const rerun: Progress[] = [];
    const done = await client.callTool(
      { name: 'sendElicitationResult', arguments: { elicitId: pending.elicitId, action: 'accept', content: { go: true } } },
      undefined,
      { onprogress: (p) => rerun.push(p) },
    );
    expect(done.structuredContent).toEqual({ asked: true, go: true });
    expect(rerun.map((p) => p.progress)).toEqual([1, 2]);
  });
});
