import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join, resolve } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { helloModule as module, tempProject } from '../fixtures/dev-project';

// parley dev in a pseudo-terminal (util-linux `script`), on a temp copy of a small server module.
const REPO = resolve(__dirname, '../..');

let dir: string;
let term: ChildProcessWithoutNullStreams;
let screen = '';
const since = { at: 0 };
const fresh = () => screen.slice(since.at);
const mark = () => (since.at = screen.length);
const waitFor = (text: string | RegExp, timeout = 20_000) => vi.waitFor(() => expect(fresh()).toMatch(text), { timeout, interval: 100 });

beforeAll(async () => {
  dir = tempProject(REPO, module('hello from v1'));
  const command = `exec ${process.execPath} ${join(REPO, 'bin/parley.js')} dev server.ts --port 0`;
  term = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env: { ...process.env, TERM: 'dumb' } });
  term.stdout.on('data', (chunk: Buffer) => (screen += chunk.toString()));
});
afterAll(async () => {
  term.stdin.write('\x03'); // Ctrl-C, as a person would
  await vi.waitFor(() => expect(term.exitCode ?? term.signalCode).not.toBeNull(), { timeout: 10_000 }).catch(() => term.kill('SIGKILL'));
  rmSync(dir, { recursive: true, force: true });
});

async function callHello(url: string) {
  const client = new Client(
    { name: 'dev-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    return ((await client.callTool({ name: 'hello', arguments: {} })).content as { text: string }[])[0]!.text;
  } finally {
    await client.close();
  }
}

/** The landing page as a raw client gets it, with the Host header it chooses. */
const landingPageAs = (url: string, host: string) =>
  new Promise<string>((resolve, reject) => {
    const origin = new URL(url).origin;
    httpGet(`${origin}/`, { headers: { host, accept: 'text/html' } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
    }).on('error', reject);
  });

describe('parley dev in a terminal', () => {
  let url: string;

  it('prints its URL and serves a call, with one line per request and per question and answer', async () => {
    await waitFor(/Serving .*server\.ts at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    url = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(screen)![1]!;
    mark();
    expect(await callHello(url)).toBe('hello from v1');
    await waitFor(/tools\/call hello → ok/);
    expect(fresh()).toMatch(/hello asks elicitation-1: "Say hello\?" \(ok\)/);
    // What the person answered stays out of the log (it shows only at the debug level).
    expect(fresh()).toMatch(/hello got elicitation-1: accept\s*$/m);
    expect(fresh()).not.toContain('{"ok":true}');
    expect(fresh()).toMatch(/tools\/call hello → input_required \(asks elicitation-1\)/);
    // The URL it hands out is the socket's, not a loopback Host a client wrote (the resource a token must name, too).
    const page = await landingPageAs(url, '127.0.0.1:1');
    expect(page).toContain(`&quot;url&quot;: &quot;${url}&quot;`);
    expect(page).not.toContain('127.0.0.1:1/');
  });

  it('restarts when the module changes, on the same URL', async () => {
    mark();
    writeFileSync(join(dir, 'server.ts'), module('hello from v2'));
    await waitFor(/server\.ts changed: restarting[\s\S]*Serving .* at /);
    expect(fresh()).toContain(url);
    expect(await callHello(url)).toBe('hello from v2');
  });

  it('shows a syntax error with its file and line, waits, and recovers when it is fixed', async () => {
    mark();
    writeFileSync(join(dir, 'server.ts'), module('hello from v3').replace('class Hello extends', 'class Hello extends {'));
    await waitFor(/server\.ts:\d+:\d+: ERROR: [\s\S]*waiting for a change/);
    expect(fresh()).toMatch(new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/server\\.ts:4:\\d+`));
    mark();
    writeFileSync(join(dir, 'server.ts'), module('hello from v3'));
    await waitFor(/Serving .* at /);
    expect(await callHello(url)).toBe('hello from v3');
  });

  it('shows a duplicate tool name at the class that declares it, and recovers', async () => {
    mark();
    writeFileSync(join(dir, 'server.ts'), module('hello from v4').replace('tools: [Hello]', 'tools: [Hello, Hello]'));
    await waitFor(/server\.ts:4:\d+: Duplicate tool name "hello"[\s\S]*waiting for a change/);
    mark();
    writeFileSync(join(dir, 'server.ts'), module('hello from v4'));
    await waitFor(/Serving .* at /);
    expect(await callHello(url)).toBe('hello from v4');
  });

  it('keeps watching after atomic saves (sed -i writes a temp file and renames it over), twice', async () => {
    for (const next of ['v5', 'v6']) {
      mark();
      execFileSync('sed', ['-i', `s/hello from v[0-9]*/hello from ${next}/`, join(dir, 'server.ts')]);
      await waitFor(/server\.ts changed: restarting[\s\S]*Serving .* at /);
      expect(await callHello(url)).toBe(`hello from ${next}`);
    }
  });
});
