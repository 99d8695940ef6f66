// `parley inbox` as a person runs it: through flags, with the link on stdin or in FRONTMCP_INBOX_LINK, and on a terminal.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, LoopbackTokenAuth, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { config } from '../../examples/inbox/server';
import { runInbox } from '../../src/cli/inbox';
import { bearer } from '../helpers/bearer';
import { mcpRequest } from '../helpers/requests';

const ESC = '\u001b';

@Tool({ name: 'tricky', inputSchema: {} })
class Tricky extends ToolContext {
  async execute() {
    const answer = await this.elicit(`Rename ${ESC}[31mred${ESC}]0;pwned\u0007 \u202eevil?`, z.object({ name: z.string() }), {
      ttl: 20,
      persist: { key: 'tricky' },
    });
    return { answer };
  }
}
@App({ id: 'tricky', tools: [Tricky] })
class TrickyApp {}

const NAME = `cli-${process.pid}`;
const SECRET = 'cli-test-signing-secret';
const SUBJECT = 'principal:dana';
let server: RunningServer;
let origin: string;

beforeAll(async () => {
  const quiet = { debug() {}, info() {}, warn() {}, error() {} };
  server = await serve(
    { ...config, info: { name: NAME, version: '1' }, apps: [...config.apps!, TrickyApp], logger: quiet, auth: { secret: SECRET } },
    { port: 0 },
  );
  origin = new URL(server.url).origin;
});
afterAll(() => server?.close());

/** A tool call over HTTP as the signed-in caller "dana". */
async function call(name: string, args: Record<string, unknown>) {
  const request = mcpRequest(
    'tools/call',
    { name, arguments: args },
    { url: server.url, headers: { authorization: await bearer('dana', SECRET) } },
  );
  return ((await (await fetch(request)).json()) as any).result;
}

/** `parley inbox` in this process, with the link on stdin (not a terminal) and its output captured. */
async function parley(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => ({ isTTY: false, write: (s: string) => (add(s), true) }) as unknown as NodeJS.WriteStream;
  const stdin = Readable.from([options.input ?? '']) as unknown as NodeJS.ReadStream;
  const code = await runInbox(args, {
    stdin,
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    env: options.env ?? {},
  });
  return { code, stdout, stderr };
}

/** The real `parley` command in a child process. */
function parleyCommand(args: string[], options: { env?: Record<string, string>; input?: string } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/parley.js', 'inbox', ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(options.input ?? '');
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const link = async () => `${origin}/_frontmcp/inbox#code=${(await LoopbackTokenAuth.createCode({ subject: SUBJECT, server: NAME })).code}`;

/** Runs `parley inbox` inside a pseudo-terminal (util-linux `script`), answering each prompt as it appears. */
function onTerminal(args: string, replies: [RegExp, string][], piped?: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    // With `piped`, the link goes in on stdin through a pipe (`printf … | parley inbox`) and the answers on the terminal.
    const command = `${piped === undefined ? '' : 'printf "%s\\n" "$PIPED" | '}${process.execPath} bin/parley.js inbox ${args}`;
    const child = spawn('script', ['-qfe', '-E', 'never', '-c', command, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TERM: 'dumb', PIPED: piped ?? '' },
    });
    let output = '';
    let since = 0; // each prompt is looked for in what came after the last reply
    let step = 0;
    const onData = (d: Buffer) => {
      output += d.toString();
      while (step < replies.length && replies[step]![0].test(output.slice(since))) {
        child.stdin.write(`${replies[step]![1]}\r`);
        since = output.length;
        step++;
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('parley inbox', () => {
  it('lists with the link on stdin, answers with --answer and --content, and the next call of the key gets it', async () => {
    expect((await call('approve_deploy', { version: '5.0.0', waitMs: 20 })).structuredContent).toBeUndefined();
    const listing = await parley(['--url', origin], { input: `${await link()}\n` });
    expect(listing.stderr).toBe('');
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain('Questions for dana: 1');
    expect(listing.stdout).toContain('Deploy 5.0.0?');
    expect(listing.stdout).toMatch(/- approve \(required\): boolean/);
    expect(listing.stdout).toMatch(/- environment: one of "staging", "production", default "staging"/);
    // No terminal to ask on: it says how to answer instead of ending in silence with the link spent.
    expect(listing.stdout).toContain('Not asking: there is no terminal');
    expect(listing.stdout).toContain('--answer <id>');
    const id = /\[([0-9a-f-]{36})\]/.exec(listing.stdout)![1]!;
    const answered = await parleyCommand(['--url', origin, '--answer', id, '--content', '{"approve":true,"note":"from the cli"}'], {
      env: { FRONTMCP_INBOX_LINK: await link() },
    });
    expect(answered).toMatchObject({ code: 0, stdout: expect.stringContaining('it waits for the next call that asks it') });
    expect((await call('approve_deploy', { version: '5.0.0', waitMs: 20 })).structuredContent).toEqual({
      approved: true,
      note: 'from the cli',
    });
  });

  it('declines with --decline, and reports a second answer and an unknown id', async () => {
    await call('approve_deploy', { version: '5.1.0', waitMs: 20 });
    const id = /\[([0-9a-f-]{36})\]/.exec((await parley([], { input: await link() })).stdout)![1]!;
    expect((await parley(['--answer', id, '--decline'], { input: await link() })).code).toBe(0);
    const again = await parley(['--answer', id, '--cancel'], { input: await link() });
    expect(again).toMatchObject({ code: 1, stdout: expect.stringContaining('already has an answer') });
    expect((await parley(['--answer', 'nope', '--cancel'], { input: await link() })).stdout).toContain('no such question');
    expect((await call('approve_deploy', { version: '5.1.0', waitMs: 20 })).structuredContent).toEqual({ approved: false });
  });

  it('spends each link once', async () => {
    const once = await link();
    expect((await parley([], { input: once })).code).toBe(0);
    const twice = await parley([], { input: once });
    expect(twice).toMatchObject({ code: 1, stderr: expect.stringContaining('already used or has expired') });
  });

  it('strips terminal control characters from what the server sends', async () => {
    await call('tricky', {});
    const { stdout } = await parley([], { input: await link() });
    expect(stdout).toContain('Rename red');
    expect(stdout).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(stdout).not.toContain('pwned');
    const id = /\[([0-9a-f-]{36})\]/.exec(stdout)![1]!;
    expect((await parley(['--answer', id, '--cancel'], { input: await link() })).code).toBe(0);
  });

  it('refuses plain http to another machine, a link for another server, a redirect, and bad flags', async () => {
    const remote = await parley(['--url', 'http://inbox.example'], {
      input: 'http://inbox.example/_frontmcp/inbox#code=abcdefghijklmnopqrstuvwxyz',
    });
    expect(remote).toMatchObject({ code: 1, stderr: expect.stringContaining('Refusing http://inbox.example') });
    const mismatch = await parley(['--url', 'http://127.0.0.1:1'], { input: await link() });
    expect(mismatch.stderr).toContain(`The link is for ${origin}`);
    const redirector = createServer((_, res) => res.writeHead(302, { location: 'https://evil.example/' }).end());
    await new Promise<void>((r) => redirector.listen(0, '127.0.0.1', r));
    const port = (redirector.address() as AddressInfo).port;
    const redirected = await parley([], { input: `http://127.0.0.1:${port}/_frontmcp/inbox#code=abcdefghijklmnopqrstuvwxyz` });
    redirector.close();
    expect(redirected).toMatchObject({ code: 1, stderr: expect.stringContaining('redirect (302); parley inbox follows none') });
    expect((await parley(['--decline'], { input: await link() })).stderr).toContain('go with --answer');
    expect((await parley(['--answer', 'x', '--content', '[1]'], { input: await link() })).stderr).toContain('must be a JSON object');
    expect((await parley([], { input: 'not a link' })).stderr).toContain('not a link');
  });

  it('asks for the link without echoing it, and answers a waiting call on a terminal', async () => {
    const waiting = call('approve_deploy', { version: '6.0.0', waitMs: 20_000 });
    const secretLink = await link();
    for (let i = 0; i < 100 && !(await listed()); i++) await new Promise((r) => setTimeout(r, 20));
    const { code, output } = await onTerminal(`--url ${origin}`, [
      [/Paste the inbox link/, secretLink],
      [/Deploy 6\.0\.0\?\s+Answer\? \[a\]ccept.*: $/m, 'a'],
      [/approve: $/m, 'maybe'],
      [/Answer yes or no\s+approve: $/m, 'y'],
      [/environment \(optional\) \["staging"\]: $/m, 'production'],
      [/note \(optional\): $/m, 'approved on a terminal'],
    ]);
    expect(output).not.toContain(secretLink.split('#code=')[1]);
    expect(output).toContain('Deploy 6.0.0?');
    expect(output).toContain('Answered (accept): the waiting call has it.');
    expect(code).toBe(0);
    expect((await waiting).structuredContent).toEqual({ approved: true, note: 'approved on a terminal' });
  });
});

describe('parley inbox with the link piped in on a terminal', () => {
  it('asks on the terminal itself, as stdin is the pipe', async () => {
    const waiting = call('approve_deploy', { version: '6.1.0', waitMs: 20_000 });
    for (let i = 0; i < 100 && !(await listed('Deploy 6.1.0?')); i++) await new Promise((r) => setTimeout(r, 20));
    const { code, output } = await onTerminal(`--url ${origin}`, [[/Deploy 6\.1\.0\?\s+Answer\? \[a\]ccept.*: $/m, 'd']], await link());
    expect(output).toContain('Answered (decline)');
    expect(code).toBe(0);
    expect((await waiting).structuredContent).toEqual({ approved: false });
  });
});

/** True once the question is waiting (read through a session of the test's own). */
async function listed(question = 'Deploy 6.0.0?'): Promise<boolean> {
  const { stdout } = await parley([], { input: await link() });
  return stdout.includes(question);
}
