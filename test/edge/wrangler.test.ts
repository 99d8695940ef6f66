// `wrangler deploy --dry-run` builds the help-desk Worker from wrangler.toml, offline, and what it built serves a round.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { describe, expect, it } from 'vitest';
import { mcpRequest } from '../helpers/requests';

const run = promisify(execFile);

describe('wrangler deploy --dry-run', () => {
  it('builds the Worker that wrangler.toml names, and the build completes an elicitation round in workerd', { timeout: 60_000 }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'parley-wrangler-'));
    try {
      // wrangler 4.86.0 is the newest that runs on Node 20; no metrics, no cf.json download.
      const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: 'true' };
      const { stdout } = await run(process.execPath, ['node_modules/wrangler/bin/wrangler.js', 'deploy', '--dry-run', '--outdir', outdir], { env });
      expect(stdout).toMatch(/Total Upload: .* gzip: .*KiB/);
      const code = await readFile(join(outdir, 'worker.js'), 'utf8');
      expect(code).not.toMatch(/from\s*["']node:|require\(["']node:/);
      const mf = new Miniflare({ modules: true, script: code, compatibilityDate: '2026-04-01', compatibilityFlags: ['nodejs_compat'], cf: false, bindings: { VAULT_SECRET: 'built-by-wrangler' } });
      try {
        const send = async (request: Request) =>
          (await (await mf.dispatchFetch(request.url, { method: 'POST', headers: Object.fromEntries(request.headers), body: await request.text() })).json()) as any;
        const call = (extra: Record<string, unknown> = {}) => mcpRequest('tools/call', { name: 'close_ticket', arguments: { id: 'T-3' }, ...extra });
        const first = await send(call());
        expect(first.result.resultType).toBe('input_required');
        const done = await send(call({ inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } } }, requestState: first.result.requestState }));
        expect(done.result.structuredContent).toEqual({ closed: true, id: 'T-3', note: '' });
      } finally {
        await mf.dispose();
      }
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
