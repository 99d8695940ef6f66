// A browser opening the MCP endpoint gets a small page; MCP clients' GETs are answered as before.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { config as inboxConfig } from '../../examples/inbox/server';

const NAME = `<script>alert("x")</script> & 'desk'`;
const handler = createFetchHandler({ info: { name: NAME, version: '1.0.0' }, logging: { level: 'error' } });
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const get = (path: string, headers: Record<string, string>, h = handler) => h(new Request(`http://127.0.0.1:3000${path}`, { headers }));

describe('a browser visit', () => {
  it.each(['/mcp', '/'])(
    'GET %s with Accept text/html: a page naming the server, escaped, and the endpoint to connect to',
    async (path) => {
      const response = await get(path, { accept: BROWSER });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const html = await response.text();
      expect(html).not.toContain('<script');
      expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;desk&#39;');
      expect(html).toContain('<pre><code>http://127.0.0.1:3000/mcp</code></pre>');
      expect(html).toContain('Model Context Protocol');
      expect(html).not.toContain('inbox');
    },
  );

  it('names the path visited when it is not /: where a host mounted the handler', async () => {
    const html = await (
      await get(
        '/api/mcp',
        { accept: BROWSER },
        createFetchHandler({ info: { name: 'm', version: '1' }, http: { path: '/api/mcp' }, logging: { level: 'error' } }),
      )
    ).text();
    expect(html).toContain('<pre><code>http://127.0.0.1:3000/api/mcp</code></pre>');
  });

  it('has a strict CSP: no script, no source, only its own style by hash', async () => {
    const response = await get('/mcp', { accept: BROWSER });
    const csp = response.headers.get('content-security-policy')!;
    const html = await response.text();
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
  });

  it('links the inbox when persistent questions are on', async () => {
    const inbox = createFetchHandler({ ...inboxConfig, logging: { level: 'error' } });
    const html = await (await get('/mcp', { accept: BROWSER }, inbox)).text();
    expect(html).toContain('<a href="/_frontmcp/inbox">the inbox</a>');
  });
});

describe("MCP clients' GETs are unchanged", () => {
  it.each([
    ['an SSE GET with no session', { accept: 'text/event-stream' }],
    ['a JSON-RPC client', { accept: 'application/json, text/event-stream' }],
    ['no Accept at all', {}],
    ['text/html with an MCP header', { accept: BROWSER, 'mcp-protocol-version': '2026-07-28' }],
    ['text/html and text/event-stream', { accept: 'text/html, text/event-stream' }],
  ])('%s: 405 with a JSON-RPC error and Allow: POST', async (_label, headers) => {
    const response = await get('/mcp', headers as Record<string, string>);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  it('a GET naming a session is still its stream (an unknown session: 404, not the page)', async () => {
    const response = await get('/mcp', { accept: BROWSER, 'mcp-session-id': 'nope' });
    expect(response.status).not.toBe(200);
    expect(response.headers.get('content-type')).not.toContain('text/html');
  });
});
