// Regression: Next.js's edge sandbox (next start, and Vercel) defines setImmediate as a stub that throws "A Node.js API
// is used (setImmediate) which is not supported in the Edge Runtime". A round's turn end took any setImmediate it
// found, so a tool that asked never answered there; edge-runtime alone has no such stub, so only `next start` showed it.
// Here edge-runtime gets the same stub, and a tool that asks must still answer with its question.
import { EdgeRuntime } from 'edge-runtime';
import { beforeAll, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { mcpRequest } from '../helpers/requests';

let code: string;
beforeAll(async () => {
  ({ code } = await bundleWorker('test/edge/entries/vercel.ts', { format: 'iife' }));
});

it("answers a tool's question on an edge runtime whose setImmediate throws, as Next.js's does", async () => {
  const runtime = new EdgeRuntime({
    initialCode: code,
    extend: (context) =>
      Object.assign(context, {
        process: { env: { VAULT_SECRET: 'next-edge-shared-secret' } },
        setImmediate: () => {
          throw new Error('A Node.js API is used (setImmediate) which is not supported in the Edge Runtime.');
        },
      }),
  });
  const request = mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-1' } });
  const answered = runtime
    .dispatchFetch(request.url, { method: 'POST', headers: Object.fromEntries(request.headers), body: await request.text() })
    .then(async (response) => (await response.json()) as { result?: { resultType?: string } });
  const timeout = new Promise<string>((done) => setTimeout(() => done('no answer in 5 s'), 5_000));
  const body = await Promise.race([answered, timeout]);
  expect(body).toMatchObject({ result: { resultType: 'input_required' } });
});
