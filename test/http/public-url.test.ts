// Behind a proxy: http.publicUrl, and http.trustProxy honouring Forwarded / X-Forwarded-*, for the resource, its metadata,
// the challenge, the landing page and the Origin check; without trustProxy the proxy's headers change nothing.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { mcpRequest } from '../helpers/requests';
import { Who } from '../helpers/whoami';

const auth = { issuer: 'https://idp.example', scopesSupported: ['desk'] };
const config = (http: Record<string, unknown> = {}) => ({
  info: { name: 'desk', version: '1.0.0' },
  apps: [Who],
  auth,
  http,
  logger: quietLogger,
});
const quietLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** A GET through a real socket with the headers a proxy would add (fetch cannot set Host). */
function getThrough(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    outgoing.on('error', reject).end();
  });
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('http.publicUrl', () => {
  it('is the origin of the resource, the challenge, the landing page, and an Origin the server takes as its own', async () => {
    const handler = createFetchHandler(config({ publicUrl: 'https://mcp.example.com' }));
    const metadata = await handler(new Request('http://10.0.0.7:8080/.well-known/oauth-protected-resource/mcp'));
    expect((await metadata.json()).resource).toBe('https://mcp.example.com/mcp');
    const refused = await handler(
      mcpRequest('tools/list', {}, { url: 'http://10.0.0.7:8080/mcp', headers: { origin: 'https://mcp.example.com' } }),
    );
    expect(refused.status).toBe(401); // past the Origin check (403 otherwise), to the missing token
    expect(refused.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    const page = await handler(new Request('http://10.0.0.7:8080/mcp', { headers: { accept: 'text/html' } }));
    expect(await page.text()).toContain('https://mcp.example.com/mcp');
  });

  it('is refused at startup with a path, naming what to write', async () => {
    const handler = createFetchHandler(config({ publicUrl: 'https://mcp.example.com/mcp' }));
    const original = console.error;
    const lines: string[] = [];
    console.error = (line: string) => lines.push(line);
    try {
      expect((await handler(mcpRequest('tools/list'))).status).toBe(503);
    } finally {
      console.error = original;
    }
    expect(lines.join('\n')).toContain("http.publicUrl: an http(s) origin with no path, like 'https://mcp.example.com'");
  });
});

describe('http.trustProxy, through serve()', () => {
  const proxied = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'mcp.example.com' };

  it('takes the origin from X-Forwarded-Proto/-Host, or Forwarded, and ignores a value that is no host', async () => {
    running = await serve(config({ trustProxy: true }), { port: 0, quiet: true });
    const url = `${running.url.replace(/\/mcp$/, '')}/.well-known/oauth-protected-resource/mcp`;
    expect(JSON.parse((await getThrough(url, proxied)).body).resource).toBe('https://mcp.example.com/mcp');
    const standard = await getThrough(url, { forwarded: 'for=192.0.2.60;proto=https;host="desk.example.org", for=10.0.0.1' });
    expect(JSON.parse(standard.body).resource).toBe('https://desk.example.org/mcp');
    const bad = await getThrough(url, { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/"x' });
    expect(JSON.parse(bad.body).resource).toBe(`${running.url}`);
    const challenge = await new Promise<string>((resolve, reject) => {
      const outgoing = httpRequest(
        running!.url,
        { method: 'POST', headers: { ...proxied, 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(String(response.headers['www-authenticate']));
        },
      );
      outgoing.on('error', reject).end('{}');
    });
    expect(challenge).toContain('resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
  });

  it('ignores the proxy headers without trustProxy', async () => {
    running = await serve(config(), { port: 0, quiet: true });
    const url = `${running.url.replace(/\/mcp$/, '')}/.well-known/oauth-protected-resource/mcp`;
    expect(JSON.parse((await getThrough(url, proxied)).body).resource).toBe(running.url);
  });
});
