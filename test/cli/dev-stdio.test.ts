import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { helloModule, tempProject } from '../fixtures/dev-project';

// parley dev --stdio, started by the official clients as a desktop app would start it, logging to a file.
const REPO = resolve(__dirname, '../..');
let dir: string;
const logOf = () => readFileSync(join(dir, 'dev.log'), 'utf8');
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
const args = () => [join(REPO, 'bin/parley.js'), 'dev', '--stdio', 'server.ts', '--log', join(dir, 'dev.log')];

beforeAll(() => {
  dir = tempProject(REPO, helloModule('stdio v1'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parley dev --stdio', () => {
  it('serves a 2026-07-28 client, logs to the file, and keeps the connection across a restart', async () => {
    const client = new Client(
      { name: 'dev-stdio', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
    // At the debug level the log shows what was answered too (docs/cli.md).
    const env = { ...(process.env as Record<string, string>), LOG_LEVEL: 'debug' };
    const transport = new StdioClientTransport({ command: process.execPath, args: args(), cwd: dir, stderr: 'pipe', env });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    await client.connect(transport);
    try {
      expect(text(await client.callTool({ name: 'hello', arguments: {} }))).toBe('stdio v1');
      await vi.waitFor(() => expect(logOf()).toMatch(/tools\/call hello → ok/), { timeout: 10_000 });
      expect(logOf()).toMatch(/Serving .*server\.ts over stdio/);
      expect(logOf()).toMatch(/hello asks elicitation-1: "Say hello\?"/);
      expect(logOf()).toMatch(/hello got elicitation-1: accept \{"ok":true\}/);
      writeFileSync(join(dir, 'server.ts'), helloModule('stdio v2'));
      await vi.waitFor(() => expect(logOf()).toMatch(/changed: restarting[\s\S]*Serving .* over stdio/), { timeout: 20_000 });
      expect(text(await client.callTool({ name: 'hello', arguments: {} }))).toBe('stdio v2');
      expect(stderr).toBe(''); // with --log, everything went to the file
    } finally {
      await client.close();
    }
  });

  it('serves a client before 2026-07-28 and gives a restarted server its initialize again', async () => {
    writeFileSync(join(dir, 'server.ts'), helloModule('legacy v1'));
    const client = new V1Client({ name: 'dev-stdio-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(new V1StdioTransport({ command: process.execPath, args: args(), cwd: dir, stderr: 'ignore' }));
    try {
      expect(text(await client.callTool({ name: 'hello', arguments: {} }))).toBe('legacy v1');
      const before = logOf().length;
      writeFileSync(join(dir, 'server.ts'), helloModule('legacy v2'));
      await vi.waitFor(() => expect(logOf().slice(before)).toMatch(/Serving .* over stdio/), { timeout: 20_000 });
      // A restart the watcher saw for the write just before the server started may be the one logged: the call is
      // answered by the new module once the restart for the v2 write is done.
      await vi.waitFor(async () => expect(text(await client.callTool({ name: 'hello', arguments: {} }))).toBe('legacy v2'), {
        timeout: 20_000,
        interval: 250,
      });
    } finally {
      await client.close();
    }
  });
});
