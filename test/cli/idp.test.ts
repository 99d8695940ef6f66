// parley idp as a user runs it: the official v2 client, knowing only the MCP server's URL, registers at the provider,
// sends the person to its sign-in page (alice picked there), calls a tool, steps up from a 403 insufficient_scope and
// finishes the call; the server's config is the one the command printed. Then its refusals.
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { runIdp } from '../../src/cli/idp';
import { AppOAuth, signIn } from '../helpers/idp-sign-in';
import { Who } from '../helpers/whoami';

@Tool({ name: 'close_ticket', description: 'Closes a ticket', inputSchema: { id: z.string() }, scopes: ['tickets:write'] })
class CloseTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    return { closed: id, by: this.auth.user.sub };
  }
}

@App({ id: 'desk', tools: [CloseTicket] })
class Desk {}

/** The command in-process, stopped by `stop()`; resolves once it printed its instructions. */
async function startCommand(args: string[]) {
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let stderr = '';
  let stdout = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: {}, stopped };
  const exit = runIdp(args, io);
  await Promise.race([
    exit,
    new Promise<void>((resolve) =>
      setTimeout(function wait() {
        stderr.includes('Ctrl-C') ? resolve() : setTimeout(wait, 20);
      }),
    ),
  ]);
  return { exit, stop, output: () => stderr + stdout };
}

describe('parley idp with the official v2 client', () => {
  let command: Awaited<ReturnType<typeof startCommand>>;
  let parley: RunningServer;
  let issuer: string;
  beforeAll(async () => {
    command = await startCommand(['--port', '0']);
    issuer = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(command.output())![1]!;
    // The auth line the command printed, as the user pastes it.
    const printed = /auth: \{ issuer: '([^']+)', requiredScopes: \['([^']+)'\], scopesSupported: \[([^\]]+)\] \}/.exec(command.output())!;
    const auth = {
      issuer: printed[1]!,
      requiredScopes: [printed[2]!],
      scopesSupported: printed[3]!.split(', ').map((s) => s.slice(1, -1)),
    };
    parley = await serve({ info: { name: 'desk', version: '1.0.0' }, apps: [Who, Desk], auth }, { port: 0, quiet: true });
  });
  afterAll(async () => {
    await parley?.close({ graceMs: 0 });
    command?.stop();
    expect(await command?.exit).toBe(0);
  });

  it('registers, signs alice in, and steps up from tickets:read to tickets:write', async () => {
    const oauth = new AppOAuth();
    const open = () => {
      const client = new Client({ name: 'idp-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      return { client, transport: new StreamableHTTPClientTransport(new URL(parley.url), { authProvider: oauth }) };
    };
    const first = open();
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const asked = oauth.sentTo.at(-1)!;
    expect(asked.origin).toBe(issuer);
    expect(asked.searchParams.get('resource')).toBe(parley.url);
    await first.transport.finishAuth(await signIn(asked, 'alice'));

    const { client, transport } = open();
    await client.connect(transport);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ sub: 'alice', scopes: ['tickets:read'] });
    // The access token is a JWT for this resource: its audience is the MCP server's URL.
    const claims = JSON.parse(Buffer.from(oauth.saved!.access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: issuer, aud: parley.url, sub: 'alice' });

    await expect(client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } })).rejects.toBeInstanceOf(UnauthorizedError);
    const again = oauth.sentTo.at(-1)!;
    expect(again.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['tickets:read', 'tickets:write']));
    await transport.finishAuth(await signIn(again, 'alice'));
    expect((await client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } })).structuredContent).toEqual({
      closed: 'T-7',
      by: 'alice',
    });
    await client.close();
  });

  it('registers a client without the scope it named, and answers a body that is no object with 400', async () => {
    const register = (body: string) => fetch(`${issuer}/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const made = await register(
      JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', scope: 'tickets:read' }),
    );
    expect(made.status).toBe(201);
    expect(await made.json()).not.toHaveProperty('scope');
    for (const body of ['[]', 'not json', JSON.stringify({ pad: 'x'.repeat(60_000) })]) {
      const refused = await register(body);
      expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([400, 'invalid_client_metadata']);
    }
  });

  it('knows only its named people', async () => {
    const oauth = new AppOAuth();
    const { client, transport } = {
      client: new Client({ name: 'idp-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      transport: new StreamableHTTPClientTransport(new URL(parley.url), { authProvider: oauth }),
    };
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(signIn(oauth.sentTo.at(-1)!, 'mallory')).rejects.toThrow(/no sign-in for mallory/);
  });
});

describe('parley idp for a server that asks no scope', () => {
  let command: Awaited<ReturnType<typeof startCommand>>;
  let parley: RunningServer;
  beforeAll(async () => {
    command = await startCommand(['--port', '0']);
    const issuer = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(command.output())![1]!;
    parley = await serve({ info: { name: 'open', version: '1.0.0' }, apps: [Who], auth: { issuer } }, { port: 0, quiet: true });
  });
  afterAll(async () => {
    await parley?.close({ graceMs: 0 });
    command?.stop();
    await command?.exit;
  });

  it('signs the person in: a request with no scope is not refused (a stock oidc-provider says access_denied)', async () => {
    const oauth = new AppOAuth();
    const open = () => ({
      client: new Client({ name: 'idp-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
      transport: new StreamableHTTPClientTransport(new URL(parley.url), { authProvider: oauth }),
    });
    const first = open();
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.sentTo.at(-1)!.searchParams.get('scope')).toBeNull();
    await first.transport.finishAuth(await signIn(oauth.sentTo.at(-1)!, 'bob'));
    const { client, transport } = open();
    await client.connect(transport);
    expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({ sub: 'bob' });
    await client.close();
  });
});

describe('parley idp refuses', () => {
  it('production, a bad port or scope, and says how to get oidc-provider in its help', async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      let text = '';
      const write = { write: (t: string) => (text += t) };
      const code = await runIdp(args, { stdout: write, stderr: write, env, stopped: Promise.resolve() });
      return { code, text };
    };
    expect(await run(['--port', '0'], { NODE_ENV: 'production' })).toEqual({ code: 1, text: expect.stringContaining('development only') });
    expect(await run(['--port', 'x'])).toEqual({ code: 1, text: expect.stringContaining('--port must be a port number') });
    expect(await run(['--scopes', 'a b'])).toEqual({ code: 1, text: expect.stringContaining('--scopes takes scope names') });
    expect(await run(['--server', 'ftp://x'])).toEqual({
      code: 1,
      text: expect.stringContaining("--server takes the MCP server's origin"),
    });
    expect(await run(['--help'])).toEqual({ code: 0, text: expect.stringContaining('npm install -D oidc-provider') });
  });
});
