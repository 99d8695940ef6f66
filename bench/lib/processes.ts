// Starting a benchmarked server in its own Node process, waiting until it listens, and stopping it again.
import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  /** The last lines the process wrote (stdout and stderr), and how it ended if it has: what a failed row reports. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
  env?: Record<string, string>;
  /** The runtime binary and its arguments before the script (default: this Node, with `nodeFlags`). Bun: `[bun]`;
   * Deno: `[deno, 'run', '-A']`. */
  runtime?: string[];
  /** Seconds to wait for LISTENING (default START_TIMEOUT). */
  startTimeout?: number;
}

/** Seconds a server may take to print LISTENING: generous, because a busy machine starts processes slowly. */
const START_TIMEOUT = 60;

const SERVERS = fileURLToPath(new URL('../servers/', import.meta.url));
const BENCH = fileURLToPath(new URL('../', import.meta.url));
/** `hono` is bench/servers/hono.ts; a name with a slash is a path under bench/ (`peers/tmcp` is bench/peers/tmcp.ts, whose
 * imports resolve from bench/peers/node_modules). */
const source = (name: string) => (name.includes('/') ? `${BENCH}${name}.ts` : `${SERVERS}${name}.ts`);
export const BUILD_DIR = fileURLToPath(new URL('../.build/', import.meta.url));
const running = new Set<ChildProcess>();
const built = new Map<string, Promise<string>>();

/** Bundles bench/servers/<name>.ts with esbuild (as a deployment would build it), so the process runs plain JS with no loader. */
function bundle(name: string): Promise<string> {
  let file = built.get(name);
  if (!file) {
    const outfile = `${BUILD_DIR}${name.replaceAll('/', '-')}.mjs`;
    file = build({
      entryPoints: [source(name)],
      outfile,
      bundle: true,
      platform: 'node',
      conditions: ['parley-source'], // parley-mcp from its TypeScript source (package.json "parley-source" condition)
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
      external: ['@mcp-use/client'], // an optional peer of mcp-use that it imports only when asked to
      // Bundled CommonJS dependencies call require().
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    }).then(() => outfile);
    built.set(name, file);
  }
  return file;
}

/** Starts bench/servers/<name>.ts, bundled, in its own process and resolves once it prints `LISTENING <port>`. */
export async function startServer(name: string, options: StartOptions = {}): Promise<ServerProcess> {
  const file = await bundle(name);
  const [command, ...prefix] = options.runtime ?? [process.execPath, ...(options.nodeFlags ?? [])];
  const child = spawn(command!, [...prefix, file], {
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stderr!.on('data', keep);
  let ended = '';
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => ((ended = `[exited: ${signal ?? `code ${code}`}]`), resolve())),
  );
  void exited.then(() => running.delete(child));
  child.once('error', (error) => ((ended = `[could not run ${command}: ${error.message}]`), fail(error)));
  const logTail = (lines = 15) => [...output.trimEnd().split('\n').slice(-lines), ended].filter(Boolean).join('\n');
  let fail = (_error: Error) => {};
  return new Promise((resolve, reject) => {
    let listening = false;
    const limit = options.startTimeout ?? START_TIMEOUT;
    const timer = setTimeout(() => fail(new Error(`${name} did not start within ${limit} s`)), limit * 1000);
    fail = (error: Error) => {
      if (listening) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${logTail()}`));
    };
    child.once('exit', (code) => listening || fail(new Error(`${name} exited with code ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^LISTENING (\d+)$/.exec(line);
      if (!m) return void keep(Buffer.from(`${line}\n`));
      if (listening) return;
      listening = true;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        port,
        pid: child.pid!,
        logTail,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
            await exited;
            clearTimeout(killer);
          }
        },
      });
    });
  });
}

/** Kills whatever is still running (for an interrupted run). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}
