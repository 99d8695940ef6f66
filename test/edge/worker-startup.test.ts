// A Worker's log in workerd: levels go to their own console methods (wrangler shows INFO as info, not a red ERROR), and
// an entry that called enableRedisHttp() with no Upstash settings says so when it starts.
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';

let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorker('examples/cloudflare/worker-redis-http.ts'));
});

const running: Miniflare[] = [];
afterAll(() => Promise.all(running.map((mf) => mf.dispose())));

function start(bindings: Record<string, string> = {}) {
  const out = { stdout: '', stderr: '' };
  const collect = (stream: Readable, key: keyof typeof out) => stream.on('data', (chunk: Buffer) => (out[key] += chunk.toString()));
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    cf: false,
    bindings,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      collect(stdout, 'stdout');
      collect(stderr, 'stderr');
    },
  });
  running.push(mf);
  const send = async (request: Request) =>
    mf.dispatchFetch(request.url, { method: 'POST', headers: Object.fromEntries(request.headers), body: await request.text() });
  return { out, send };
}

describe('the Redis-over-HTTP Worker without its settings', () => {
  it('warns once at startup that enableRedisHttp() is unused, and serves 2026-07-28 clients', async () => {
    const { out, send } = start();
    const response = await send(mcpRequest('tools/list'));
    expect(response.status).toBe(200);
    await send(mcpRequest('tools/list'));
    await expect
      .poll(() => out.stdout + out.stderr)
      .toContain('[parley] WARN enableRedisHttp() put Redis over HTTP in this Worker, but it is not used');
    expect((out.stdout + out.stderr).split('enableRedisHttp() put').length - 1).toBe(1);
  });

  it('writes INFO lines as info, not as errors', async () => {
    const { out, send } = start();
    await send(mcpRequest('tools/list'));
    await expect.poll(() => out.stdout + out.stderr).toContain('[parley] INFO No elicitation store on this Edge runtime');
    expect(out.stderr).not.toContain('[parley] INFO');
    expect(out.stdout).toContain('[parley] INFO');
  });
});
