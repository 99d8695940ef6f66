// createWorker((env) => config) inside workerd: the config is made from the Worker's bindings on its first request.
import { afterAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest, read } from '../helpers/requests';
import { startWorker, type RunningWorker } from '../helpers/workerd';

const workers: RunningWorker[] = [];
afterAll(() => Promise.all(workers.map((w) => w.dispose())));

async function worker(bindings: Record<string, string>): Promise<RunningWorker> {
  const { code, nodeImports } = await bundleWorker('test/edge/entries/env-config-worker.ts');
  expect(nodeImports).toEqual([]);
  const running = startWorker(code, bindings);
  workers.push(running);
  return running;
}

describe('a Worker config made from env', () => {
  it('takes its settings from the bindings', async () => {
    const w = await worker({ MCP_PATH: '/from-binding' });
    const served = await read(await w.send(mcpRequest('tools/list', {}, { url: 'http://worker.example/from-binding' })));
    expect([served.status, served.body.result.tools]).toEqual([200, []]);
    expect((await w.send(mcpRequest('tools/list', {}, { url: 'http://worker.example/mcp' }))).status).toBe(404);
  });

  it('a config function that throws: 503 with no detail, and the log says what it threw', async () => {
    const w = await worker({});
    const response = await w.send(mcpRequest('tools/list', {}, { url: 'http://worker.example/mcp' }));
    expect([response.status, await response.json()]).toEqual([
      503,
      { error: 'SERVER_START_FAILED', message: 'The server failed to start; see its log.' },
    ]);
    await expect.poll(() => w.output()).toContain('Server failed to start: the config function threw Error: MCP_PATH is not bound');
  });
});
