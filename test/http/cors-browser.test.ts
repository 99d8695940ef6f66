// A page on another origin calling the server with the official v2 client (bundled for the page with esbuild) in real
// chromium: a loopback page and server working with no configuration (development), refused with CORS on and its
// origin unlisted, working once listed, on both eras, the session id read.
import { createServer, type Server as HttpServer } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { launchChromium } from '../helpers/chromium';

@Tool({ name: 'echo', description: 'Says it back', inputSchema: { text: z.string() } })
class Echo extends ToolContext {
  async execute({ text }: { text: string }) {
    return `echo: ${text}`;
  }
}

@App({ id: 'echo', tools: [Echo] })
class EchoApp {}

// What the page runs: connect, call echo, and report the answer and the session id the client could read.
const PAGE_SCRIPT = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
globalThis.callEcho = async (url, pin) => {
  const client = new Client({ name: 'page', version: '1.0.0' }, pin ? { versionNegotiation: { mode: { pin } } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(url));
  try {
    await client.connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    return { text: result.content[0].text, sessionId: transport.sessionId ?? null };
  } catch (error) {
    return { error: String(error) };
  } finally {
    await client.close().catch(() => undefined);
  }
};
`;

let browser: Browser;
let page: Page;
let pageServer: HttpServer;
let pageOrigin: string;
const running: RunningServer[] = [];
const console_: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: resolve(__dirname, '../..'), loader: 'js' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  const script = bundle.outputFiles[0]!.text;
  pageServer = createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title><script src="/client.js"></script>');
  });
  await new Promise<void>((done) => pageServer.listen(0, '127.0.0.1', done));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as { port: number }).port}`;
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (message) => console_.push(message.text()));
  await page.goto(pageOrigin);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((r) => r.close({ graceMs: 0 })));
  await new Promise<void>((done) => pageServer?.close(() => done()));
});

async function server(http: FrontMcpConfigInput['http']): Promise<string> {
  const one = await serve({ info: { name: 'cors', version: '1.0.0' }, apps: [EchoApp], http }, { port: 0, quiet: true });
  running.push(one);
  return one.url;
}

const callEcho = (url: string, pin?: string) =>
  page.evaluate(
    ([u, p]) => (globalThis as unknown as { callEcho: (u: string, p?: string) => Promise<Record<string, unknown>> }).callEcho(u!, p),
    [url, pin] as const,
  );

/** The call fails, and chromium says why: CORS (the client reports only that it could not negotiate). */
async function expectBlocked(url: string): Promise<void> {
  console_.length = 0;
  expect(await callEcho(url, '2026-07-28')).toEqual({ error: expect.any(String) });
  expect(console_.join('\n')).toContain(`from origin '${pageOrigin}' has been blocked by CORS policy`);
}

describe('a browser client on another origin', () => {
  it('calls a tool with no configuration from a loopback page to a server on loopback (development), on both eras', async () => {
    const url = await server({});
    expect(await callEcho(url, '2026-07-28')).toEqual({ text: 'echo: hi', sessionId: null });
    expect(await callEcho(url)).toMatchObject({ text: 'echo: hi', sessionId: expect.stringMatching(/^[\w-]{16,}$/) });
  });

  it('calls a tool on 2026-07-28 once its origin is listed with CORS on', async () => {
    const url = await server({ allowedOrigins: [pageOrigin], cors: true });
    expect(await callEcho(url, '2026-07-28')).toEqual({ text: 'echo: hi', sessionId: null });
  });

  it('is refused with CORS on when its origin is not listed', async () => {
    await expectBlocked(await server({ allowedOrigins: ['https://app.example'], cors: true }));
  });

  it('on 2025-11-25 reads the Mcp-Session-Id the server set, and calls with it', async () => {
    const url = await server({ allowedOrigins: [pageOrigin], cors: true });
    const answer = await callEcho(url);
    expect(answer).toMatchObject({ text: 'echo: hi', sessionId: expect.stringMatching(/^[\w-]{16,}$/) });
  });
});
