// Hand-built 2026-07-28 requests for tests that speak the wire directly.
export const MODERN = '2026-07-28';

export const meta = (capabilities: Record<string, unknown> = { elicitation: {} }) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

let nextId = 1;

export interface PostOptions {
  headers?: Record<string, string | null>;
  url?: string;
}

/** A POST with the headers a 2026-07-28 client sends; `headers` overrides or (with null) removes one. */
export function mcpRequest(method: string, params: Record<string, unknown> = {}, options: PostOptions = {}): Request {
  const body = { jsonrpc: '2.0', id: nextId++, method, params: { _meta: meta(), ...params } };
  const name = (params.name ?? params.uri) as string | undefined;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name ? { 'mcp-name': name } : {}),
  };
  for (const [k, v] of Object.entries(options.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  return new Request(options.url ?? 'http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
}

export const rawPost = (body: string, headers: Record<string, string> = {}, url = 'http://127.0.0.1/mcp') =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** The status and JSON body; of an event stream (an older client's call), the JSON-RPC response it ends with. */
export async function read(response: Response): Promise<{ status: number; body: any }> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const events = text
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)));
    return { status: response.status, body: events.reverse().find((e) => e.id !== undefined && ('result' in e || 'error' in e)) };
  }
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
