// Streamable HTTP for the client: one POST per message, answered with JSON or an SSE stream; a session id once the server sets one.
import { checkMessage, HEADER, parseJson, type JsonRpcMessage } from '../protocol';
import { McpHttpError } from './errors';
import { readSse } from './sse';
import type { ClientTransport } from './types';

export interface HttpTransportOptions {
  url: string | URL;
  /** Replaces globalThis.fetch, e.g. `(request) => handler(request)` for an in-process server. */
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

export function createHttpTransport(options: HttpTransportOptions): ClientTransport {
  const url = new URL(options.url);
  const doFetch = options.fetch ?? ((request: Request) => fetch(request));
  let sessionId: string | undefined;

  const headersFor = (extra: Record<string, string>) => ({
    ...options.headers,
    ...(sessionId ? { [HEADER.sessionId]: sessionId } : {}),
    ...extra,
  });

  async function* messagesOf(response: Response, signal?: AbortSignal): AsyncGenerator<JsonRpcMessage> {
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('text/event-stream') && response.body) {
      for await (const event of readSse(response.body, signal)) {
        if (event.event !== 'message' || event.data.trim() === '') continue;
        yield parseMessageText(event.data, response.status);
      }
      return;
    }
    const text = await response.text();
    if (response.status === 202 && text === '') return;
    yield parseMessageText(text, response.status);
  }

  return {
    async *send(message, extra = {}, signal) {
      const response = await doFetch(
        new Request(url, {
          method: 'POST',
          headers: headersFor({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }),
          body: JSON.stringify(message),
          signal,
        }),
      );
      const assigned = response.headers.get(HEADER.sessionId);
      if (assigned) sessionId = assigned;
      yield* messagesOf(response, signal);
    },

    async *listen(extra, signal) {
      const response = await doFetch(
        new Request(url, { method: 'GET', headers: headersFor({ accept: 'text/event-stream', ...extra }), signal }),
      ).catch(() => undefined);
      // 405: the server offers no stream of its own, which is allowed.
      if (!response?.ok || !response.body) return void (await response?.body?.cancel().catch(() => {}));
      yield* messagesOf(response, signal);
    },

    async close(extra) {
      if (!sessionId) return;
      const response = await doFetch(new Request(url, { method: 'DELETE', headers: headersFor(extra) })).catch(() => undefined);
      await response?.body?.cancel().catch(() => {});
      sessionId = undefined;
    },
  };
}

function parseMessageText(text: string, status: number): JsonRpcMessage {
  try {
    return checkMessage(parseJson(text));
  } catch {
    throw new McpHttpError(status, text);
  }
}
