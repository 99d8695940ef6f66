// Inside workerd, elicitation with no store that serves there: every request 503, and the log names the error.
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';

it('refuses to start without a store or the stateless opt-in, on every request, and says why', async () => {
  const { code, nodeImports } = await bundleWorker('test/edge/entries/worker-no-store.ts');
  expect(nodeImports).toEqual([]);
  let output = '';
  const collect = (stream: Readable) => stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    cf: false,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      collect(stdout);
      collect(stderr);
    },
  });
  try {
    for (const method of ['tools/list', 'ping']) {
      const request = mcpRequest(method);
      const response = await mf.dispatchFetch(request.url, {
        method: 'POST',
        headers: Object.fromEntries(request.headers),
        body: await request.text(),
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'SERVER_START_FAILED' });
    }
    await expect
      .poll(() => output)
      .toContain(
        '[parley] ERROR Server failed to start: ElicitationNotSupportedError: Elicitation requires distributed storage when running on Edge runtime',
      );
  } finally {
    await mf.dispose();
  }
});
