// Row 5: Parley inside workerd (miniflare), bundled as wrangler would: a simple call's throughput, and a cold start.
import { Miniflare } from 'miniflare';
import { bundleWorker } from '../../test/helpers/bundle';
import { simpleCall } from '../scenarios';
import { median, undisturbed, type Settings } from './measure';
import { runLoad, type RunResult } from './load';
import { isTextResult, modernRequest, resultOf } from './wire';
import { SIMPLE_TEXT } from '../servers/fixture';

const ENTRY = 'bench/servers/worker.ts';
const options = (script: string) => ({
  modules: true,
  script,
  compatibilityDate: '2026-04-01',
  bindings: { VAULT_SECRET: 'bench-vault-secret-0123456789abcdef' },
  cf: false,
  port: 0,
  host: '127.0.0.1',
});

export interface ColdStart {
  /** From `new Miniflare()` (a new workerd process and isolate) to the first tools/call answered, ms. */
  toFirstResponse: number;
  /** From `new Miniflare()` until workerd reports ready, ms. */
  ready: number;
  /** The first request alone, once workerd reported ready, ms. */
  firstRequest: number;
}

/** A worker that does nothing but answer the simple call: what starting workerd itself costs, beside Parley's. */
const TRIVIAL = `export default { fetch: () => Response.json({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: ${JSON.stringify(SIMPLE_TEXT)} }] } }) };`;

async function coldStart(script: string): Promise<ColdStart> {
  const t0 = performance.now();
  const mf = new Miniflare(options(script));
  try {
    const url = await mf.ready;
    const t1 = performance.now();
    const request = modernRequest('tools/call', { name: 'greet', arguments: { name: 'bench' } });
    const response = await fetch(new URL('/mcp', url), { method: 'POST', headers: request.headers, body: request.body });
    const body = await response.text();
    const t2 = performance.now();
    if (!isTextResult(resultOf(body), SIMPLE_TEXT)) throw new Error(`workerd answered ${response.status} ${body.slice(0, 200)}`);
    return { toFirstResponse: t2 - t0, ready: t1 - t0, firstRequest: t2 - t1 };
  } finally {
    await mf.dispose();
  }
}

const medianOf = (starts: ColdStart[]): ColdStart => ({
  toFirstResponse: median(starts.map((s) => s.toFirstResponse)),
  ready: median(starts.map((s) => s.ready)),
  firstRequest: median(starts.map((s) => s.firstRequest)),
});

export async function measureWorkerd(settings: Settings, log: (line: string) => void) {
  const { code } = await bundleWorker(ENTRY);
  // Alternately, so both see the same machine: workerd with a trivial worker, then with Parley's.
  const trivial: ColdStart[] = [];
  const parley: ColdStart[] = [];
  for (let i = 0; i < Math.max(3, settings.runs); i++) {
    trivial.push(await coldStart(TRIVIAL));
    parley.push(await coldStart(code));
  }
  const mf = new Miniflare(options(code));
  const runs: RunResult[] = [];
  try {
    const url = new URL('/mcp', await mf.ready).href;
    const warm =
      settings.warmup > 0 ? [await runLoad(url, simpleCall(), { connections: settings.connections, duration: settings.warmup })] : [];
    let discarded = 0;
    for (let i = 0; i < settings.runs; i++) {
      const [run, thrown] = await undisturbed(
        settings,
        () => runLoad(url, simpleCall(), { connections: settings.connections, duration: settings.duration }),
        log,
      );
      runs.push(run);
      discarded += thrown;
    }
    return {
      runs,
      warm,
      discarded,
      cold: medianOf(parley),
      workerdAlone: medianOf(trivial),
    };
  } finally {
    await mf.dispose();
  }
}
