// parley dev's child process: loads the user's server module, serves it, and tells the parent it is ready or failed.
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configOf, buildServer, type ServerInput } from '../app';
import { serverOptionsOf } from '../model';
import { serveStdio, ExchangeLog } from '../adapters';
import { escapeLogText } from '../runtime';
import { withDevHooks } from './dev-log';
import { serveDevHttp } from './dev-http';
import { describeModuleError } from './module-error';

export interface ChildReport {
  type: 'ready' | 'failed';
  url?: string;
}

const print = (line: string) => void process.stderr.write(`${line}\n`);
const report = (message: ChildReport) => process.send?.(message);
const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/** The server a module exports: a default @FrontMcp class or config, else a named @FrontMcp class, else `config`. */
function serverInputOf(module: Record<string, unknown>, entry: string): ServerInput {
  const isServer = (v: unknown) => typeof v === 'function' && serverOptionsOf(v) !== undefined;
  const isConfig = (v: unknown) => typeof v === 'object' && v !== null && 'info' in v;
  if (isServer(module.default) || isConfig(module.default)) return module.default as ServerInput;
  const named = Object.values(module).find(isServer) ?? (isConfig(module.config) ? module.config : undefined);
  if (named) return named as ServerInput;
  throw new Error(
    `${entry} exports no server: export default a class decorated with @FrontMcp, or a config object (a module that calls serve() itself is not an entry: name the module that exports its config)`,
  );
}

async function main(entry: string, mode: string, port: number): Promise<void> {
  // The dev log's one sink: its lines carry names, errors and answers from clients, escaped as the logger escapes them.
  const log = new ExchangeLog((line) => print(`[parley] ${escapeLogText(line)}`));
  try {
    const config = withDevHooks(configOf(serverInputOf(await import(pathToFileURL(entry).href), entry)), log);
    // Build once up front, quietly: a bad schema or a duplicate tool shows now, not on the first request.
    await buildServer({ ...config, logger: SILENT });
    if (mode === 'stdio') {
      await serveStdio(config, { observe: (direction, message) => (direction === 'in' ? log.inbound(message) : log.outbound(message)) });
      report({ type: 'ready' });
    } else {
      report({ type: 'ready', url: await serveDevHttp(config, port, log) });
    }
  } catch (error) {
    print(`[parley] ✖ ${describeModuleError(error, entry, dirname(dirname(fileURLToPath(import.meta.url))))}`);
    report({ type: 'failed' });
    process.exit(3);
  }
}

const [entry, mode = 'http', port = '0'] = process.argv.slice(2);
if (entry) await main(entry, mode, Number(port));
