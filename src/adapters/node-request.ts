// Turning Node's IncomingMessage into the Request the handler reads: a light one for MCP POSTs, a real one otherwise.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { standIn } from './stand-in';

// A Host header that can be put in a URL: a name or IPv4 address, or a bracketed IPv6 one, with an optional port.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's URL (`target`: the path and query, the request's own by default), or undefined when its Host header cannot name one. */
export function urlOf(incoming: IncomingMessage, fallbackHost: string, target = incoming.url): string | undefined {
  const host = incoming.headers.host ?? fallbackHost;
  if (!HOST.test(host) || !target?.startsWith('/')) return undefined;
  return `http://${host}${target}`;
}

/** The headers of an MCP POST: get() and has() read Node's parsed headers; anything else reads a real Headers. */
class IncomingHeaders {
  #real: Headers | undefined;

  constructor(private readonly incoming: IncomingMessage) {}

  get real(): Headers {
    return (this.#real ??= headersOf(this.incoming));
  }

  get(name: string): string | null {
    const value = (this.incoming.headers as IncomingHttpHeaders)[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.incoming.headers[name.toLowerCase()] !== undefined;
  }
}
standIn(IncomingHeaders, Headers);

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

/** Aborts when the client goes away before the response is finished. */
function abortOnClose(outgoing: ServerResponse): AbortController {
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort(new Error('The client closed the connection'));
  });
  return controller;
}

/**
 * An MCP POST, whose body the handler reads from the socket (HandlerOptions.readBody): only its method, URL, headers
 * and signal are read, so only those exist, the last two built on first read.
 */
class McpPost {
  readonly method = 'POST';
  readonly body = null;
  #headers: Headers | undefined;
  #controller: AbortController | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    private readonly outgoing: ServerResponse,
    readonly url: string,
  ) {}

  get headers(): Headers {
    return (this.#headers ??= new IncomingHeaders(this.incoming) as unknown as Headers);
  }

  get signal(): AbortSignal {
    return (this.#controller ??= abortOnClose(this.outgoing)).signal;
  }
}

export const mcpPostRequest = (incoming: IncomingMessage, outgoing: ServerResponse, url: string): Request =>
  new McpPost(incoming, outgoing, url) as unknown as Request;

/** Any other request, as a full Fetch Request with its body streamed from the socket. */
export function fetchRequest(incoming: IncomingMessage, outgoing: ServerResponse, url: string): Request {
  const method = incoming.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers: headersOf(incoming),
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    signal: abortOnClose(outgoing).signal,
    duplex: 'half',
  } as RequestInit);
}
