// Under serve() on loopback with no public URL, the resource a token's audience must name is the bound socket's, never
// the origin a client writes in Host: a token a real provider issued for another local server (another port) is
// refused when replayed with that server's Host, which the loopback guard lets through.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { startIdp, type TestIdp } from '../helpers/oidc';
import { sparePort } from '../helpers/ports';
import { mcpRequest } from '../helpers/requests';
import { Who } from '../helpers/whoami';

let idp: TestIdp;
let server: RunningServer;
let elsewhere: string;

beforeAll(async () => {
  idp = await startIdp();
  server = await serve(
    {
      info: { name: 'loopback-resource', version: '1.0.0' },
      apps: [Who],
      auth: { issuer: idp.issuer },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    },
    { port: 0, quiet: true },
  );
  elsewhere = `127.0.0.1:${await sparePort()}`; // another local MCP server's address
});
afterAll(async () => {
  await server?.close({ graceMs: 0 });
  await idp?.close();
});

/** Sends `request` to the server as a raw client does, with the Host header it chooses. */
async function send(request: Request, host: string): Promise<{ status: number; body: string; challenge?: string }> {
  const body = request.method === 'GET' ? undefined : await request.text();
  const url = new URL(request.url.replace('http://127.0.0.1/', `${new URL(server.url).origin}/`));
  return new Promise((resolve, reject) => {
    const headers = { ...Object.fromEntries(request.headers), host };
    const outgoing = httpRequest(url, { method: request.method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, challenge: response.headers['www-authenticate'] }));
    });
    outgoing.on('error', reject).end(body);
  });
}

const whoami = (token: string) =>
  mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${token}` } });

describe('the resource under serve() on loopback', () => {
  it("refuses a token issued for another local server, replayed with that server's Host", async () => {
    const theirs = await idp.machineToken(`http://${elsewhere}/mcp`);
    const replayed = await send(whoami(theirs), elsewhere);
    expect(replayed.status).toBe(401);
    expect(replayed.body).not.toContain('"result"');
  });

  it('takes a token issued for the bound address, whatever loopback Host the client writes', async () => {
    const mine = await idp.machineToken(server.url);
    expect((await send(whoami(mine), new URL(server.url).host)).status).toBe(200);
    expect((await send(whoami(mine), `localhost:${new URL(server.url).port}`)).status).toBe(200);
  });

  it("names the bound address in its Protected Resource Metadata and challenges, not the client's Host", async () => {
    const metadata = await send(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp'), elsewhere);
    expect(JSON.parse(metadata.body)).toMatchObject({ resource: server.url });
    const challenge = await send(mcpRequest('tools/list'), elsewhere);
    expect(challenge.status).toBe(401);
    expect(challenge.challenge).toContain(`resource_metadata="${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp"`);
  });
});
