// Rows 14 and 15's Worker: bench/servers/waiting-worker.ts (or another entry) bundled as wrangler builds it, in one workerd process (miniflare) with
// its Durable Objects on SQLite storage, served on a loopback port. It stands beside the Node servers as a
// ServerProcess whose pid is workerd's, so the row counts workerd's CPU as it counts a Node server's.
import { Miniflare } from 'miniflare';
import type { Readable } from 'node:stream';
import { bundleWorker } from '../../test/helpers/bundle';
import { childrenOf } from './cpu';
import { readFileSync } from 'node:fs';
import type { ServerProcess } from './processes';

const ENTRY = 'bench/servers/waiting-worker.ts';

const isWorkerd = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd';
  } catch {
    return false;
  }
};

export async function startWaitingWorker(entry = ENTRY): Promise<ServerProcess> {
  const { code, nodeImports } = await bundleWorker(entry);
  if (nodeImports.length > 0) throw new Error(`the Worker bundle imports Node modules: ${nodeImports.join(', ')}`);
  const before = new Set(childrenOf(process.pid).filter(isWorkerd));
  let output = '';
  const collect = (stream: Readable) => stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const mf = new Miniflare({
    modules: true,
    script: code,
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { VAULT_SECRET: 'bench-vault-secret-0123456789abcdef' },
    durableObjects: { PARLEY_STORE: { className: 'ParleyStore', useSQLite: true } },
    cf: false,
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => void (collect(stdout), collect(stderr)),
  });
  const url = await mf.ready;
  const pids = childrenOf(process.pid).filter((pid) => isWorkerd(pid) && !before.has(pid));
  if (pids.length !== 1) {
    await mf.dispose();
    throw new Error(`expected one new workerd process, found ${pids.length}`);
  }
  return {
    url: new URL('/mcp', url).href,
    port: Number(url.port),
    pid: pids[0]!,
    logTail: (lines = 20) => output.split('\n').slice(-lines).join('\n'),
    stop: () => mf.dispose(),
  };
}
