// Starting a benchmarked server in its own Node process, waiting until it listens, and stopping it again.
import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ServerProcess {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
  env?: Record<string, string>;
}

const SERVERS = fileURLToPath(new URL('../servers/', import.meta.url));
export const BUILD_DIR = fileURLToPath(new URL('../.build/', import.meta.url));
const running = new Set<ChildProcess>();
const built = new Map<string, Promise<string>>();

/** Bundles bench/servers/<name>.ts with esbuild (as a deployment would build it), so the process runs plain JS with no loader. */
function bundle(name: string): Promise<string> {
  let file = built.get(name);
  if (!file) {
    const outfile = `${BUILD_DIR}${name}.mjs`;
    file = build({
      entryPoints: [`${SERVERS}${name}.ts`],
      outfile,
      bundle: true,
      platform: 'node',
      conditions: ['parley-source'], // parley-mcp from its TypeScript source (package.json "parley-source" condition)
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
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
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), file], {
    env: { ...process.env, NODE_ENV: 'production', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));
  return new Promise((resolve, reject) => {
    let listening = false;
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 20 s`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr}`));
    };
    child.once('exit', (code) => listening || fail(new Error(`${name} exited with code ${code} before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^LISTENING (\d+)$/.exec(line);
      if (!m || listening) return;
      listening = true;
      clearTimeout(timer);
      const port = Number(m[1]);
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        port,
        pid: child.pid!,
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
