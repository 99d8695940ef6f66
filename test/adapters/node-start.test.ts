// On Node a server that can't start says so at once: serve() rejects (a bad config, a port in use), npm start and
// parley dev exit non-zero with one readable line, no stack. createFetchHandler stays lazy for the edge.
import { spawn } from 'node:child_process';
import { createServer, type Server as NetServer } from 'node:net';
import { join, resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve } from 'parley-mcp/node';
import { describeModuleError } from '../../src/cli/module-error';
import { helloModule, tempProject } from '../fixtures/dev-project';

const REPO = resolve(__dirname, '../..');
const bad = { info: { name: 'bad', version: '1' }, http: { maxBodyBytes: -1 } } as never;

let busy: NetServer;
let busyPort: number;
beforeAll(async () => {
  busy = createServer();
  await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => busy.close(() => done())));

function run(args: string[], env: Record<string, string> = {}, cwd = REPO): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    child.on('exit', (code) => done({ code, stderr }));
  });
}

describe('serve() on Node', () => {
  it('rejects with the config error instead of listening and answering 503', async () => {
    const error = await serve(bad, { port: 0 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^Server failed to start: Invalid server configuration:\n {2}http\.maxBodyBytes: /);
    expect(error?.stack).not.toMatch(/\n\s+at /);
  });

  it('a misspelt option: names its path and the option it was likely meant to be', async () => {
    const typo = { info: { name: 'typo', version: '1' }, elicitaton: { enabled: true }, http: { cros: true, xyzzy: 1 } } as never;
    const error = await serve(typo, { port: 0 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message.split('\n').slice(1).sort()).toEqual([
      '  elicitaton: not an option: did you mean elicitation?',
      '  http.cros: not an option: did you mean http.cors?',
      '  http.xyzzy: not an option',
    ]);
  });

  it('createFetchHandler stays lazy: it builds on the first request and answers 503', async () => {
    const handler = createFetchHandler(bad);
    const response = await handler(new Request('http://127.0.0.1/mcp', { method: 'POST', body: '{}' }));
    expect(response.status).toBe(503);
  });

  it('a port in use: says which and how to move it, with no stack', async () => {
    const error = await serve({ info: { name: 'x', version: '1' } }, { port: busyPort, quiet: true }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.message).toBe(`port ${busyPort} is in use: set PORT, or pass serve(config, { port })`);
    expect(error?.code).toBe('EADDRINUSE');
  });

  // As npm start runs it; parley-source is the package's source condition once published as parley-mcp (ignored before).
  it('npm start (examples/help-desk/serve.ts) exits 1 with that line', async () => {
    const { code, stderr } = await run(['--conditions=parley-source', '--import', 'tsx', 'examples/help-desk/serve.ts'], {
      PORT: String(busyPort),
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`[parley] ✖ port ${busyPort} is in use: set PORT`);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('parley dev and a port in use', () => {
  it('exits 1 at once and says to pass --port', async () => {
    const dir = tempProject(REPO, helloModule('hi'));
    try {
      const { code, stderr } = await run([join(REPO, 'bin/parley.js'), 'dev', 'server.ts', '--port', String(busyPort)], {}, dir);
      expect(code).toBe(1);
      expect(stderr).toContain(`parley dev: port ${busyPort} is in use: pass --port N (0 picks a free one), or set PORT`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a listen error in the child (a restart that lost the race) shows its message, not Node's own frame as a file", () => {
    const error = Object.assign(new Error('port 3000 is in use: pass --port N (0 picks a free one), or set PORT'), { code: 'EADDRINUSE' });
    expect(describeModuleError(error, '/p/server.ts', '/own')).toBe('port 3000 is in use: pass --port N (0 picks a free one), or set PORT');
    const internal = new Error('boom');
    internal.stack = 'Error: boom\n    at process.processTicksAndRejections (node:internal/process/task_queues:83:21)';
    expect(describeModuleError(internal, '/p/server.ts', '/own')).toBe('/p/server.ts: boom');
  });
});
