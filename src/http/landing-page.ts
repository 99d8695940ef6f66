// What a person sees who opens the MCP endpoint in a browser: the server's name, that this is an MCP endpoint, and how
// to connect. Static text with every dynamic value escaped, no script, and a CSP that allows only its own style.
import type { ParleyServer } from '../engine';
import { INBOX_BASE } from '../protocol';
import { publicOrigin } from './public-url';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}pre{background:#f3f3f3;padding:.75rem;overflow-x:auto}';
/** sha256 of STYLE, base64 (test/http/landing-page.test.ts checks it): the CSP allows that style and nothing else. */
const STYLE_HASH = 'sha256-a3GLaHNO6PAO+rwOBNQoipy9OKMwPw3N/l+iN4q1cME=';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src '${STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
  vary: 'Accept',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A browser's navigation (it accepts text/html and sends no MCP header, and no event stream is asked for). MCP clients
 * keep what they got before: a GET naming a session is its stream, any other GET gets 405.
 */
export function isBrowserVisit(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('text/html') && !accept.includes('text/event-stream') && !request.headers.has('mcp-protocol-version');
}

export function landingPage(server: ParleyServer, request: Request): Response {
  // The path visited is an MCP endpoint (http.path, or where a host mounted the handler); at / name http.path.
  const { pathname } = new URL(request.url);
  const origin = publicOrigin(request, server.config.http);
  const endpoint = `${origin}${pathname === '/' ? server.config.http.path : pathname}`;
  const name = server.info.title ?? server.info.name;
  const clientConfig = JSON.stringify({ mcpServers: { [server.info.name]: { url: endpoint } } }, null, 2);
  const inbox = server.questions
    ? `<p>Questions this server keeps for you wait in <a href="${INBOX_BASE}/inbox">the inbox</a> (sign in with the one-time link a tool gives you).</p>`
    : '';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(name)} · MCP server</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escape(name)}</h1>
<p>${escape(server.info.name)} ${escape(server.info.version)} is a <a href="https://modelcontextprotocol.io">Model Context Protocol</a> server. This address is its endpoint for MCP clients, not a web page to use.</p>
<p>Connect an MCP client (an agent, a desktop app, the MCP Inspector) over Streamable HTTP to:</p>
<pre><code>${escape(endpoint)}</code></pre>
<p>For a client configured with JSON:</p>
<pre><code>${escape(clientConfig)}</code></pre>
${inbox}
</body>
</html>
`;
  return new Response(html, { status: 200, headers: HEADERS });
}
