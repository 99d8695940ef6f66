// Hand-built requests of clients before 2026-07-28, and a reader for the server-sent events they get back.
export const LEGACY = '2025-11-25';
let nextId = 1000;

type Handler = (request: Request) => Promise<Response>;

export function legacyPost(body: unknown, session?: string, headers: Record<string, string> = {}, url = 'http://127.0.0.1/mcp'): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

export const request = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: nextId++, method, params });

/** initialize + notifications/initialized; resolves with the session id. */
export async function openLegacySession(
  handler: Handler,
  capabilities: Record<string, unknown> = { elicitation: {} },
  headers: Record<string, string> = {},
  url?: string,
): Promise<string> {
  const init = request('initialize', { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'raw', version: '1' } });
  const response = await handler(legacyPost(init, undefined, headers, url));
  const session = response.headers.get('mcp-session-id');
  if (response.status !== 200 || !session) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  await handler(legacyPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, session, headers, url));
  return session;
}

export interface SseEvent {
  id?: string;
  data: any;
}

/** Reads events from an SSE body one at a time. */
export function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    /** The next event that carries data, or undefined when the stream ended. */
    async next(): Promise<SseEvent | undefined> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) return { id, data: JSON.parse(data) };
          continue;
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffer += value;
      }
    },
    cancel: () => reader.cancel(),
  };
}
