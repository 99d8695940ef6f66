// The official v2 client's OAuth support signs in to Parley with nothing but its URL, against a real OpenID provider on
// loopback: the 401, Protected Resource Metadata, the provider's metadata, dynamic registration, authorization code
// with PKCE, a call that elicits, then a 403 insufficient_scope the client steps up from. Then the provider's side:
// client credentials, a rotated key, an outage, a token for another resource. And a 2025-03-26 client's discovery.
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { discoverOAuthMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App, Tool, ToolContext, z } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { AppOAuth, REDIRECT } from '../helpers/idp-sign-in';
import { authorize, MACHINE, startIdp, type TestIdp } from '../helpers/oidc';
import { Who } from '../helpers/whoami';

@Tool({
  name: 'close_ticket',
  description: 'Closes a ticket once the person confirms',
  inputSchema: { id: z.string() },
  scopes: ['tickets:write'],
})
class CloseTicket extends ToolContext {
  async execute({ id }: { id: string }) {
    const answer = await this.elicit(`Close ${id}?`, z.object({ confirm: z.boolean() }));
    return { closed: answer.status === 'accept' && answer.content?.confirm === true, by: this.auth.user.sub };
  }
}

@App({ id: 'desk', tools: [CloseTicket] })
class Desk {}

const quiet = { debug() {}, info() {}, warn() {}, error(_line: string) {} };
let idp: TestIdp;
let parley: RunningServer;

const config = (logger: typeof quiet = quiet) => ({
  info: { name: 'desk', version: '1.0.0' },
  apps: [Who, Desk],
  elicitation: { enabled: true },
  logger,
  // The issuer alone: its JWKS is found from its metadata. Reading is the starting scope; closing needs a step up.
  auth: { issuer: idp.issuer, requiredScopes: ['tickets:read'], scopesSupported: ['tickets:read', 'tickets:write'] },
});

beforeAll(async () => {
  idp = await startIdp();
  parley = await serve(config(), { port: 0, quiet: true });
});
afterAll(async () => {
  await parley.close({ graceMs: 0 });
  await idp.close();
});
afterEach(() => vi.useRealTimers());

const VERSIONS = { '2026-07-28': { mode: { pin: '2026-07-28' } }, '2025-11-25 (legacy handshake)': undefined } as const;

describe.each(Object.entries(VERSIONS))('the official v2 client signing in, on %s', (_name, versionNegotiation) => {
  it('signs in from the URL alone, calls a tool that elicits after stepping up from 403 insufficient_scope', async () => {
    const oauth = new AppOAuth();
    const open = () => {
      const client = new Client(
        { name: 'oauth-test', version: '1.0.0' },
        { capabilities: { elicitation: {} }, ...(versionNegotiation ? { versionNegotiation } : {}) },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
      const transport = new StreamableHTTPClientTransport(new URL(parley.url), { authProvider: oauth });
      return { client, transport };
    };
    // 1. No token: the 401 sends the client through discovery and registration to the provider's authorization page.
    const first = open();
    await expect(first.client.connect(first.transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.registered?.client_id).toBeTruthy();
    const asked = oauth.sentTo.at(-1)!;
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('resource')).toBe(parley.url);
    // The challenge's scope; the client adds offline_access itself when the provider offers refresh tokens.
    expect(asked.searchParams.get('scope')?.split(' ')).toContain('tickets:read');
    expect(asked.searchParams.get('scope')?.split(' ')).not.toContain('tickets:write');
    await first.transport.finishAuth(await authorize(asked, REDIRECT, 'alice'));

    // 2. Signed in: the caller is the person.
    const { client, transport } = open();
    await client.connect(transport);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ sub: 'alice', scopes: ['tickets:read'] });

    // 3. Closing needs tickets:write: 403, the client asks the person again for both scopes, then the call finishes.
    let stepUp: unknown;
    try {
      await client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } });
    } catch (error) {
      stepUp = error;
    }
    expect(stepUp).toBeInstanceOf(UnauthorizedError);
    const again = oauth.sentTo.at(-1)!;
    expect(again.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['tickets:read', 'tickets:write']));
    await transport.finishAuth(await authorize(again, REDIRECT, 'alice'));
    const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'T-7' } });
    expect(closed.structuredContent).toEqual({ closed: true, by: 'alice' });
    await client.close();
  });
});

describe('a 2025-03-26 client', () => {
  it("finds the authorization server's metadata at the MCP server's origin: a copy of the provider's own", async () => {
    // The v1 SDK's discovery as clients of that revision use it: the MCP server's URL taken for the authorization server's.
    const metadata = await discoverOAuthMetadata(parley.url, { protocolVersion: '2025-03-26' });
    expect(metadata).toMatchObject({ issuer: idp.issuer, registration_endpoint: `${idp.issuer}/reg` });
    expect(metadata?.code_challenge_methods_supported).toContain('S256');
  });

  it('answers 503 with a log line while the provider is down, then the copy again', async () => {
    const errors: string[] = [];
    const fresh = await serve(config({ ...quiet, error: (line: string) => errors.push(line) }), { port: 0, quiet: true });
    const url = new URL('/.well-known/oauth-authorization-server', fresh.url);
    try {
      idp.setDown(true);
      expect((await fetch(url)).status).toBe(503);
      expect(errors.join('\n')).toContain("The authorization server's metadata could not be read");
      idp.setDown(false);
      expect(((await (await fetch(url)).json()) as { issuer: string }).issuer).toBe(idp.issuer);
    } finally {
      idp.setDown(false);
      await fresh.close({ graceMs: 0 });
    }
  });
});

describe("the provider's side", () => {
  const whoami = async (url: string, token: string) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'whoami',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'whoami',
          arguments: {},
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('takes a client-credentials token as the client; refuses one issued for another resource', async () => {
    const { status, body } = await whoami(parley.url, await idp.machineToken(parley.url));
    expect(status).toBe(200);
    expect(body.result.structuredContent).toMatchObject({ sub: MACHINE.id, clientId: MACHINE.id });
    expect((await whoami(parley.url, await idp.machineToken('https://other.example/mcp'))).status).toBe(401);
  });

  it('takes a token signed with a rotated key (a new kid) once the JWKS may be fetched again', async () => {
    expect((await whoami(parley.url, await idp.machineToken(parley.url))).status).toBe(200);
    await idp.rotateKey();
    const rotated = await idp.machineToken(parley.url);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31_000); // an unknown kid fetches the JWKS again at most every 30 s
    expect((await whoami(parley.url, rotated)).status).toBe(200);
  });

  it('answers 503 with a log line while the provider is down, then recovers', async () => {
    const errors: string[] = [];
    const fresh = await serve(config({ ...quiet, error: (line: string) => errors.push(line) }), { port: 0, quiet: true });
    try {
      const token = await idp.machineToken(fresh.url);
      idp.setDown(true);
      const refused = await whoami(fresh.url, token);
      expect(refused.status).toBe(503);
      expect(errors.join('\n')).toContain('The issuer metadata');
      idp.setDown(false);
      expect((await whoami(fresh.url, token)).status).toBe(200);
    } finally {
      idp.setDown(false);
      await fresh.close({ graceMs: 0 });
    }
  });
});
