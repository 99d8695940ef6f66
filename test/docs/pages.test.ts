// The docs' pages hold: every relative link and #anchor resolves, every TypeScript or JavaScript block is checked or
// marked a fragment, every marked block typechecks against the source, every server module a page shows starts and
// lists its tools, and the getting-started example runs, answered by the official v2 client and by parley-mcp/client.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { connect } from 'parley-mcp';
import { launchChromium } from '../helpers/chromium';
import { AppOAuth, signIn } from '../helpers/idp-sign-in';
import { sparePort } from '../helpers/ports';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { anchors, checkedBlocks, links, pages, read, ROOT, shortName, shownOutput, unmarkedBlocks } from './markdown';

const OUT = join(ROOT, '.tmp', 'docs-check');

describe('links', () => {
  for (const page of pages()) {
    it(`${shortName(page)}: every relative link and #anchor resolves`, () => {
      const broken: string[] = [];
      for (const { target, at } of links(read(page))) {
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
        if (!existsSync(file)) broken.push(`line ${at}: ${target} (no such file)`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor))
          broken.push(`line ${at}: ${target} (no such heading)`);
      }
      expect(broken).toEqual([]);
    });
  }

  it('finds anchors the way GitHub makes them', () => {
    const made = anchors(
      "# The fallback: `sendElicitationResult`\n## Limits on older clients' sessions\n## Node\n## Node\n```\n# not a heading\n```\n",
    );
    expect([...made]).toEqual(['the-fallback-sendelicitationresult', 'limits-on-older-clients-sessions', 'node', 'node-1']);
  });
});

/** Writes every page's marked blocks to .tmp/docs-check/<page>/ and returns the files. */
function writeBlocks(): { file: string; where: string }[] {
  rmSync(OUT, { recursive: true, force: true });
  const written: { file: string; where: string }[] = [];
  for (const page of pages()) {
    const dir = join(OUT, shortName(page).replace(/\.md$/, ''));
    for (const block of checkedBlocks(read(page))) {
      const file = join(dir, block.name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, block.code);
      written.push({ file, where: `${shortName(page)}:${block.at}` });
    }
  }
  return written;
}

/** Type errors in the given files, compiled with the repository's tsconfig (JavaScript is parsed, and run below). */
function typeErrors(files: string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.json'),
    { allowJs: true, noEmit: true },
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error('tsconfig.json did not parse');
  const program = ts.createProgram(files, config.options);
  const ours = new Set(files.map((f) => resolve(f)));
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && ours.has(resolve(d.file.fileName)))
    .map((d) => {
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${shortName(d.file!.fileName)}:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
}

describe('code blocks', () => {
  let written: { file: string; where: string }[] = [];
  beforeAll(() => {
    written = writeBlocks();
  });

  it('every TypeScript and JavaScript block is marked for checking, or marked a fragment', () => {
    const unmarked = pages().flatMap((page) => unmarkedBlocks(read(page)).map((at) => `${shortName(page)}:${at}`));
    expect(unmarked).toEqual([]);
  });

  it('finds a block with no marker, and takes check and fragment markers', () => {
    const page = '```ts\nconst a = 1;\n```\n\n<!-- fragment -->\n```ts\nx;\n```\n<!-- check: a.ts -->\n```ts\ny;\n```\n```bash\nls\n```\n';
    expect(unmarkedBlocks(page)).toEqual([1]);
  });

  it('every page with examples marks some for checking, and every marked block typechecks', { timeout: 120_000 }, () => {
    const marked = new Set(written.map((w) => w.where.split(':')[0]));
    for (const page of [
      'README.md',
      'docs/getting-started.md',
      'docs/elicitation.md',
      'docs/deployment.md',
      'docs/testing.md',
      'docs/stores-and-scaling.md',
    ])
      expect(marked).toContain(page);
    expect(typeErrors(written.map((w) => w.file))).toEqual([]);
  });
});

describe('server modules on the pages', () => {
  let redis: RunningRedis;
  let home: string;
  let env: Record<string, string>;
  // Loads a page's module as a reader's `npx tsx` would, starts its server in-process, and prints its tools.
  const starter = join(OUT, 'start-module.ts');
  const start = (file: string, extra: Record<string, string | undefined> = {}) => run(starter, { ...env, ...extra, MODULE: file }).done;
  beforeAll(async () => {
    if (!existsSync(join(OUT, 'docs', 'unanswered', 'server.ts'))) writeBlocks();
    writeFileSync(
      starter,
      [
        "import { connect } from 'parley-mcp';",
        'const { default: Server } = await import(process.env.MODULE!);',
        'const client = await connect(Server);',
        'console.log(JSON.stringify((await client.listTools()).tools.map((t) => t.name)));',
        'await client.dispose();',
        'process.exit(0);',
      ].join('\n'),
    );
    redis = await startRedis();
    home = mkdtempSync(join(tmpdir(), 'parley-docs-home-'));
    // What the pages tell the reader to set before starting them.
    env = {
      REDIS_URL: redis.url,
      REDIS_HOST: redis.host,
      REDIS_PORT: String(redis.port),
      AUTH_SECRET: 'a-docs-check-secret-0123456789abcdef',
      PARLEY_NOTIFY_SECRET: 'a-docs-check-webhook-secret',
      INBOX_CLIENT_SECRET: 'a-docs-check-inbox-client-secret',
      FRONTMCP_HOME: home,
    };
  });
  afterAll(async () => {
    await redis?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('each one that exports its server starts as written and lists its tools', { timeout: 120_000 }, async () => {
    const modules = pages().flatMap((page) =>
      checkedBlocks(read(page))
        .filter((block) => block.lang === 'ts' && /^export default class /m.test(block.code))
        .map((block) => join(OUT, shortName(page).replace(/\.md$/, ''), block.name)),
    );
    const started: Record<string, unknown> = {};
    for (const file of modules) {
      const { code, stdout, stderr } = await start(file);
      started[shortName(file)] = code === 0 ? JSON.parse(stdout.trim().split('\n').at(-1)!) : `exit ${code}: ${stderr}`;
    }
    // Each page's server, so a page that stops exporting its server is noticed.
    expect(started).toMatchObject({
      '.tmp/docs-check/docs/unanswered/server.ts': ['deploy', 'inbox_link'],
      '.tmp/docs-check/docs/elicitation/persistent.ts': ['approve_deploy', 'inbox_link'],
      '.tmp/docs-check/docs/elicitation/hooks.ts': [],
      '.tmp/docs-check/docs/testing/server.ts': expect.any(Array),
      '.tmp/docs-check/docs/deployment/src/server.ts': expect.any(Array),
      '.tmp/docs-check/docs/stores-and-scaling/block-23.ts': [],
      '.tmp/docs-check/docs/auth/inbox-server.ts': [],
      '.tmp/docs-check/docs/auth/server.ts': ['whoami', 'close_ticket'],
      '.tmp/docs-check/docs/approvals/server.ts': ['refund'],
      '.tmp/docs-check/docs/approvals/approvers.ts': ['refund_large'],
    });
    expect(Object.values(started).filter((v) => typeof v === 'string')).toEqual([]);
  });

  it("unanswered.md's server refuses to start without AUTH_SECRET, naming the field and what to do", { timeout: 60_000 }, async () => {
    const { code, stderr } = await start(join(OUT, 'docs', 'unanswered', 'server.ts'), { AUTH_SECRET: undefined });
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/auth\.secret: .*environment variable, that variable is not set/);
  });
});

/** Runs a TypeScript file the way the repository's scripts do; resolves with its output once `until` matches or it exits. */
function run(file: string, env: Record<string, string | undefined>, until?: RegExp, args: string[] = []) {
  const child = spawn(process.execPath, ['--conditions=parley-source', '--import', 'tsx', file, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((settle) =>
    child.once('exit', (code) => settle({ code, stdout, stderr })),
  );
  const matched = until
    ? new Promise<RegExpExecArray>((found, fail) => {
        const look = () => {
          const match = until.exec(stderr);
          if (match) found(match);
        };
        child.stderr.on('data', look);
        void done.then(() => fail(new Error(`${shortName(file)} exited before printing ${until}:\n${stdout}${stderr}`)));
      })
    : undefined;
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return done;
  };
  return { done, matched, stop, output: () => stdout + stderr };
}

describe('the getting-started example', () => {
  const dir = join(OUT, 'docs', 'getting-started');
  let server: ReturnType<typeof run> | undefined;
  beforeAll(() => {
    if (!existsSync(join(dir, 'server.ts'))) writeBlocks();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves, prints the banner the page shows, and a v2 client completes the round', { timeout: 60_000 }, async () => {
    server = run(join(dir, 'server.ts'), { PORT: '0' }, /serving (http:\/\/\S+)/);
    const url = (await server.matched!)[1]!;
    const port = new URL(url).port;

    const shown = shownOutput(read(join(ROOT, 'docs/getting-started.md')), '[parley] INFO Help desk')!;
    expect(shown).toBeDefined();
    const here = (line: string) => line.replace(':3000/', `:${port}/`).replace('port 3000 (default)', 'port 0 (env PORT)');
    await expect.poll(() => server!.output()).toContain(here(shown.at(-1)!));
    for (const line of shown) expect(server.output()).toContain(here(line));
    // Every line of the banner is on the page, none left out.
    const printed = server.output().split('\n');
    expect(printed.filter((line) => line.startsWith('[parley] INFO'))).toHaveLength(shown.length);

    const client = await run(join(dir, 'client.ts'), { MCP_URL: url }).done;
    expect(client.stderr).toBe('');
    expect(client.code).toBe(0);
    expect(client.stdout).toContain('asked: Close ticket T-1?');
    expect(client.stdout).toMatch(/closed: true,\s+id: 'T-1'/);

    // The same client at 2025-11-25 (its default mode), and docs/client.md's block, against the same server.
    const legacy = await run(join(dir, 'client-2025.ts'), { MCP_URL: url }).done;
    expect(legacy.stderr).toBe('');
    expect(legacy.code).toBe(0);
    expect(legacy.stdout).toContain('asked: Close ticket T-2?');
    expect(legacy.stdout).toMatch(/closed: true,\s+id: 'T-2'/);

    const own = await run(join(OUT, 'docs', 'client', 'client.ts'), { MCP_URL: url }).done;
    expect(own.stderr).toBe('');
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(/closed: true,\s+id: 'T-3'/);
  });

  it('the JavaScript server, decorators called as functions, asks and gets its answer', async () => {
    const { default: Server } = (await import(join(dir, 'server.mjs'))) as { default: Function };
    const client = await connect(Server);
    try {
      client.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
      expect((await client.callTool('close_ticket', { id: 'T-2' })).structuredContent).toEqual({ closed: true, id: 'T-2' });
    } finally {
      await client.dispose();
    }
  });
});

describe("client.md's task client against tasks.md's task tool", () => {
  let server: ReturnType<typeof run> | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('follows export_ledger to its end, answering both of its questions', { timeout: 60_000 }, async () => {
    writeBlocks(); // as the page is now (a -t run skips the describes that write them)
    const serving = join(OUT, 'docs', 'tasks', 'serve-ledger.ts');
    writeFileSync(
      serving,
      [
        "import { App, FrontMcp } from 'parley-mcp';",
        "import { serve } from 'parley-mcp/node';",
        "import { ExportLedger } from './export-ledger.ts';",
        "@App({ id: 'books', tools: [ExportLedger] })",
        'class Books {}',
        "@FrontMcp({ info: { name: 'books', version: '1.0.0' }, apps: [Books], elicitation: { enabled: true } })",
        'class Server {}',
        'await serve(Server);',
      ].join('\n'),
    );
    server = run(serving, { PORT: '0' }, /serving (http:\/\/\S+)/);
    const url = (await server.matched!)[1]!;
    const client = await run(join(OUT, 'docs', 'client', 'client-task.ts'), { MCP_URL: url }).done;
    expect(client.stderr).toBe('');
    expect(client.code).toBe(0);
    expect(client.stdout).toContain('asked: Export the 2025 ledger?');
    expect(client.stdout).toContain('asked: Publish 18204 rows?');
    expect(client.stdout).toContain('ledger-2025.csv: 18204 rows');
  });
});

describe("auth.md's walk-through with parley idp", () => {
  let idp: ReturnType<typeof run> | undefined;
  let server: ReturnType<typeof run> | undefined;
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.stop();
  });

  it('the provider prints the page, the client signs alice in and steps up, alice answers in the inbox', { timeout: 90_000 }, async () => {
    writeBlocks();
    const port = await sparePort();
    const origin = `http://127.0.0.1:${port}`;
    idp = run(join(ROOT, 'bin', 'parley.js'), {}, /Ctrl-C stops it/, ['idp', '--port', '0', '--server', origin]);
    await idp.matched;
    const issuer = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(idp.output())![1]!;
    // What the command printed is what the page shows, but for its port and the server it was told of.
    const shown = shownOutput(read(join(ROOT, 'docs/auth.md')), 'parley idp:')!;
    for (const line of shown.filter((l) => !l.includes('inbox client')))
      expect(idp.output()).toContain(line.replaceAll('http://127.0.0.1:9400', issuer));

    const serving = join(OUT, 'docs', 'auth', 'serve.ts');
    writeFileSync(serving, "import { serve } from 'parley-mcp/node';\nimport Server from './server.ts';\nawait serve(Server);\n");
    server = run(serving, { PORT: String(port), IDP_URL: issuer }, /serving (http:\/\/\S+)/);
    const url = (await server.matched!)[1]!;

    // 1-2. The official v2 client signs alice in, and steps up to tickets:write for close_ticket.
    const oauth = new AppOAuth();
    const open = () => ({
      client: new Client({ name: 'docs', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      transport: new StreamableHTTPClientTransport(new URL(url), { authProvider: oauth }),
    });
    const first = open();
    await first.client.connect(first.transport).catch(() => undefined);
    await first.transport.finishAuth(await signIn(oauth.sentTo.at(-1)!, 'alice'));
    const { client, transport } = open();
    await client.connect(transport);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({
      sub: 'alice',
      scopes: ['tickets:read'],
    });
    await client.callTool({ name: 'close_ticket', arguments: { id: 'T-9' } }).catch(() => undefined);
    await transport.finishAuth(await signIn(oauth.sentTo.at(-1)!, 'alice'));

    // 3. The call waits for alice's answer in the inbox: she signs in there at the provider and answers.
    const closing = client.callTool({ name: 'close_ticket', arguments: { id: 'T-9' } });
    browser = await launchChromium();
    const page = await browser.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${origin}/_frontmcp/inbox`);
    await page.locator('#status').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign in as alice' }).click();
    const card = page.locator('article.question', { hasText: 'Close ticket T-9?' });
    await card.getByLabel('confirm').check();
    await card.getByRole('button', { name: 'Submit' }).click();
    expect((await closing).structuredContent).toEqual({ closed: true, by: 'alice' });
    await client.close();
  });
});
