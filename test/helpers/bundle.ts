// Bundles a Worker entry with esbuild the way wrangler does, for tests that run it inside workerd and for npm run size.
import { build, type Metafile } from 'esbuild';
import { gzipSync } from 'node:zlib';

export interface BundleOptions {
  /** 'iife' for runtimes that take a script rather than a module (edge-runtime). */
  format?: 'esm' | 'iife';
  minify?: boolean;
}

export async function bundleWorker(
  entry: string,
  options: BundleOptions = {},
): Promise<{ code: string; nodeImports: string[]; metafile: Metafile }> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: options.format ?? 'esm',
    minify: options.minify ?? false,
    keepNames: options.minify ?? false, // as wrangler builds (keep_names defaults to true), so sizes match its upload
    platform: 'neutral',
    conditions: ['parley-source', 'workerd', 'worker', 'browser'], // wrangler's, and parley-mcp from its source
    mainFields: ['module', 'main'],
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true } },
  });
  const nodeImports = Object.values(result.metafile.inputs).flatMap((input) =>
    input.imports.filter((i) => i.path.startsWith('node:') || (i.external && i.path !== '<runtime>')).map((i) => i.path),
  );
  return { code: result.outputFiles[0]!.text, nodeImports, metafile: result.metafile };
}

/** The bundle budget: the help-desk Worker (Parley with zod and jose), minified and gzipped. 119.75 KB from session
 * eighteen's trim: z.fromJSONSchema left out of an edge bundle's z (zod's JSON Schema reader, which Parley never uses;
 * a re-exported namespace cannot be shaken) took it from 126,903 to 122,101 bytes (123.9 → 119.2 KB), and the budget
 * came down to the size and 0.5 KB. 124 KB from #46's thread, the question store's one record shape (stores/questions/thread.ts) under pending questions, with their
 * first-answer claim and the reader of the records the release before kept (+1.1 KB: 126,777 bytes). 123 KB from
 * session fifteen: older clients' stream events kept in a shared store for Last-Event-ID on any isolate (#47, +1.5 KB) and the
 * one question store's keyed names and sealing with the readers of records named the former way (#46, +1.6 KB) took it
 * from 121,446 to 124,955 bytes (118.6 → 122.0 KB). 119 KB from #50:
 * tokens verified by jose's jwtVerify and local key set behind Parley's refusals, and sign-in in src/auth/, took it from
 * 114,510 to 120,432 bytes (+5,922, 111.8 → 117.6 KB; jose is 17.3 KB of it minified), and the budget rose by as much,
 * to the whole KB. 113 KB in session thirteen (109.9 → 111.7 KB: the fallback on 2026-07-28 +0.5, this.step() and its
 * sealed record +0.45, the config's "did you mean" +0.35, the Skills methods, the IdP read cap, loopback CORS); 110 KB
 * from #32 and #36; 100 KB before. */
export const WORKER_BUDGET_BYTES = 119.75 * 1024;

/** A Worker that enableTasks() and enableRedisHttp() (examples/cloudflare/worker-tasks.ts): the budget above, plus
 * tasks' code and @upstash/redis, which only such a Worker carries. 157.25 KB from session eighteen's trim (the help
 * desk's -4.9 KB above: 165,146 → 160,301 bytes, 156.5 KB, with #47's merges). 161.5 KB from #47's refusal of a request over
 * Upstash's size before it is sent, and of the database's own refusal, as the caller's error (164,944 bytes, +0.1 KB); 161 KB from #46's thread (the help desk's +1.1 KB above, on
 * session seventeen's merges: 164,752 bytes); 160 KB from session fifteen (the help desk's +3.4 KB
 * above: 162,479 bytes, 158.7 KB); 156 KB from #48's round (its one-pass state
 * writer and IV pool, +0.6 KB: 159,027 bytes); 155 KB from #46's resume of a stretch cut mid-way
 * (its hand-over before the 30 s, 1.2 KB) and the replay of inbox-filed and 2025-11-25 tasks (0.4 KB): 158,208 bytes;
 * 153 KB from #50 (jose: 150,283 → 156,420 bytes, +6,137); 147 KB from #46's first slice (steps, about 0.6 KB gzip, and continuation by replay, about 1 KB, which lets a task on a
 * Worker wait for its person past the 30 s); it was 145 KB. */
export const TASK_WORKER_BUDGET_BYTES = 157.25 * 1024;

/** A Worker that enableTasks() and enableDurableObjects() (examples/cloudflare/worker-durable-objects.ts, and what
 * `parley init --worker` makes): the help-desk budget, plus tasks' code and the Durable Objects store, without
 * @upstash/redis. 142 KB again from #47's deadlines by alarm (the due set's object wakes the Worker through its
 * self binding, with a stored backoff): 144,922 bytes (141.5 KB, +0.5 KB); 142 KB from #46's thread (the help desk's +1.1 KB above: 144,420 bytes); 140 KB from session fifteen (the help desk's +3.4 KB above: 142,176 bytes, 138.8 KB); 136 KB from #47, measured at 138,542 bytes (135.3 KB) by `npm run size`; the project init makes is
 * 133.1 KB as wrangler uploads it. 141 KB at session seventeen's merge of #47's sorted sets and #50's grant and log hooks
 * (140.1 KB together, each under 140 alone); 140.5 KB in session seventeen's trim: measured at 143,464 bytes
 * (140.1 KB) by `npm run size`, the budget down to the size and 0.4 KB; 141.5 KB with #46's thread merged beside it
 * (141.0 KB). 137.5 KB from session eighteen's trim (the help desk's -4.9 KB above: 145,122 → 140,272 bytes, 137.0 KB, with #47's merges).
 * The issue aims at 150 KB for the full Worker, once the inbox runs there too. */
export const DURABLE_OBJECTS_WORKER_BUDGET_BYTES = 137.5 * 1024;

/** The full Worker (examples/cloudflare/worker-inbox.ts): Durable Objects, tasks, and persistent questions with the
 * inbox and the unanswered policy (enableInbox()). 165.75 KB from #50's merges in session nineteen: `to` on a tool
 * and in the unanswered policy (+0.5 KB) and the clock-aware addressees of escalation (+0.5 KB; escalation's own code
 * comes with enableOidcSignIn(), which this Worker does not call): 169,285 bytes. 164.75 KB from session nineteen's trim: the inbox's routes on
 * Parley's own router (protocol/router.ts, about 1 KB minified) in place of hono's pattern router (16.0 KB minified):
 * 174,056 → 168,232 bytes (170.0 → 164.3 KB, -5.7 KB). 170.5 KB from session eighteen's trim: the inbox's OpenID Connect
 * sign-in loaded only where http.auth.oidc is set (enableOidcSignIn(); this Worker signs people in with codes), -2.2 KB,
 * and z.fromJSONSchema left out as above, -4.9 KB: 181,349 → 174,064 bytes (177.1 → 170.0 KB), with #47's and #50's
 * merges. What stands between it and 150 KB,
 * measured before #50's addressees: hono under the inbox's routes, 5.6 KB (a 40-line router in its place), zod's core
 * namespace (z.core) 2.6 KB, @cfworker/json-schema 6.3 KB (plain JSON Schema and hand-written forms), the page 5 KB.
 * 177 KB from #50's addressees and quorum (177,084 → 180,675 bytes,
 * +3,591: who a question is for and how a sign-in's claims match them, the decisions' chain, the addressees' lists and
 * the page's decisions); they run wherever the inbox does. 174 KB from #47's deadlines by alarm (+0.5 KB, 173.5 KB
 * measured). 173.5 KB with #46's thread merged beside the trim (172.9 KB);
 * 172.25 KB from session seventeen's trim: the inbox's routes on
 * hono/tiny (its pattern router alone, not the RegExp and trie routers of hono's default SmartRouter) took it from
 * 178,614 to 175,836 bytes (174.4 → 171.7 KB; -6.3 KB minified), and the budget came down to the size and 0.5 KB. 175 KB from #50's decision log and standing approvals (173,363 →
 * 177,889 bytes, +4,526: the log's append-only chain, the grants, their routes and the page's history and grant
 * controls, about 13.5 KB minified); the log runs on every runtime the inbox does, so it is not left out here. 170 KB
 * from #47's inbox on the edge, measured at 173,049 bytes
 * (169.0 KB) by `npm run size`: the Durable Objects Worker above (138.9 KB) and 30.1 KB for the inbox, of which hono
 * (its routes) is 22 KB minified, the page (src/inbox/page.generated.ts) 5 KB gzip and the rest the questions' store,
 * service, sign-in, delivery and the unanswered policy. The issue aimed at 150 KB: out of reach while the Worker
 * without the inbox is 139 KB. */
export const INBOX_WORKER_BUDGET_BYTES = 165.75 * 1024;

export interface WorkerSize {
  gzip: number;
  minified: number;
  /** Minified bytes by package (node_modules) or by source folder (src/stores, …), largest first. */
  parts: [where: string, bytes: number][];
  /** The files that put code into the bundle. */
  files: string[];
}

/** What a Worker entry costs once minified and gzipped, and who pulls what in. */
export async function measureWorker(entry: string): Promise<WorkerSize> {
  const { code, metafile } = await bundleWorker(entry, { minify: true });
  const parts = new Map<string, number>();
  const inputs = Object.entries(Object.values(metafile.outputs)[0]!.inputs).filter(([, input]) => input.bytesInOutput > 0);
  for (const [file, input] of inputs) {
    const where = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ?? file.split('/').slice(0, 2).join('/');
    parts.set(where, (parts.get(where) ?? 0) + input.bytesInOutput);
  }
  return {
    gzip: gzipSync(code).length,
    minified: Buffer.byteLength(code),
    parts: [...parts].sort((a, b) => b[1] - a[1]),
    files: inputs.map(([file]) => file),
  };
}
