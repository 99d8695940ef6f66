// parley dev [entry] [--stdio] [--port N] [--log FILE]: runs a server module and restarts it when its source changes.
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DevRunner } from './dev-runner';
import { StdioBridge } from './stdio-bridge';

// The module that exports the server comes first: in a project `parley init` made, src/main.ts serves it itself.
const DEFAULT_ENTRIES = ['src/server.ts', 'server.ts', 'src/main.ts', 'main.ts'];

const DEV_USAGE = `parley dev [entry] [--stdio] [--port N] [--log FILE]

  entry        a module whose default export is an @FrontMcp class or a server config
               (default: the first of ${DEFAULT_ENTRIES.join(', ')})
  --port N     HTTP port on 127.0.0.1 (default: $PORT, else 3000; 0 picks a free one)
  --stdio      serve over stdin/stdout for a desktop client instead; only MCP goes to stdout
  --log FILE   append the log to FILE instead of stderr`;

export async function dev(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { stdio: { type: 'boolean' }, port: { type: 'string' }, log: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return (void process.stderr.write(`${DEV_USAGE}\n`), 0);
  const entry = entryOf(positionals[0], process.cwd());
  if (!entry || !existsSync(entry))
    return fail(positionals[0] ? `No such file: ${positionals[0]}` : `No entry given, and none of ${DEFAULT_ENTRIES.join(', ')} exists`);
  if (!isEsm(entry))
    return fail(`${entry} would load as CommonJS: Parley is ESM-only. Add "type": "module" to its package.json, or name it .mts`);
  const port = values.stdio ? 0 : await choosePort(values.port ?? process.env.PORT ?? '3000');
  if (port === undefined) return fail(`--port must be a port number, not ${values.port}`);
  if (!values.stdio && !(await isFree(port))) return fail(`port ${port} is in use: pass --port N (0 picks a free one), or set PORT`);

  const logSink = values.log ? createWriteStream(values.log, { flags: 'a' }) : process.stderr;
  const print = (line: string) => void logSink.write(`${line}\n`);
  const bridge = values.stdio
    ? new StdioBridge(
        (line) => void process.stdout.write(`${line}\n`),
        () => void stop(),
      )
    : undefined;
  const runner = new DevRunner({
    entry,
    root: dirname(entry),
    mode: values.stdio ? 'stdio' : 'http',
    port,
    print,
    logSink,
    attach: bridge && ((child) => bridge.attach(child)),
    onReady: (report) => print(report.url ? `[parley] Serving ${entry} at ${report.url}` : `[parley] Serving ${entry} over stdio`),
  });
  const stop = async () => {
    await runner.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  runner.start();
  bridge?.listen(process.stdin);
  return new Promise<number>(() => {}); // runs until stopped
}

/** The module to run: the one given, else the first of DEFAULT_ENTRIES that exists under `cwd`. */
export function entryOf(given: string | undefined, cwd: string): string | undefined {
  return given ? resolve(cwd, given) : DEFAULT_ENTRIES.map((e) => resolve(cwd, e)).find(existsSync);
}

function fail(message: string): number {
  process.stderr.write(`parley dev: ${message}\n`);
  return 1;
}

/** tsx loads .ts as ESM only when the nearest package.json says "type": "module" (or the file is .mts). */
function isEsm(entry: string): boolean {
  const ext = extname(entry);
  if (ext === '.mts' || ext === '.mjs') return true;
  if (ext === '.cts' || ext === '.cjs') return false;
  for (let dir = dirname(entry); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module';
    if (dirname(dir) === dir) return false;
  }
}

/** The port to serve on: the one given, or for 0 a free one, chosen once so restarts keep the same URL. */
async function choosePort(text: string): Promise<number | undefined> {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
  if (port !== 0) return port;
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
}

/** Whether 127.0.0.1:port can be listened on now, so a port in use fails at once instead of in every restart. */
function isFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}
