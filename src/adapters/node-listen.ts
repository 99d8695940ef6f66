// A fetch handler on node:http: requests in as Fetch Requests (or the light MCP POST), responses written back.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HandlerOptions } from '../app';
import { decodeUtf8 } from '../protocol';
import { fetchRequest, mcpPostRequest, urlOf } from './node-request';
import { answerFailure, writeResponse } from './node-response';
import { queueAnswer } from './node-turn';

interface ListenOptions {
  host: string;
  port: number;
  /** Paths whose POSTs the handler reads through `readBody` (the MCP endpoint); every other request is a full Request. */
  fastPaths?: ReadonlySet<string>;
}

export interface Listening {
  /** host:port as it listens, the IPv6 host in brackets. */
  address: string;
  port: number;
  /**
   * Lets the calls in flight run until `deadline` (a Date.now() time; default: none) while new requests are still
   * answered (a closing handler answers 503), then stops listening and closes every connection.
   */
  close(deadline?: number): Promise<void>;
}

type Fetch = (request: Request, options: HandlerOptions) => Promise<Response>;

/**
 * What a failed listen means, for a person: a port in use or not allowed, a host that is not this machine's, and what
 * to do (`hint`: how this caller moves the port). Other errors pass as they are.
 */
export function listenError(error: unknown, options: ListenOptions, hint: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const why =
    code === 'EADDRINUSE'
      ? `port ${options.port} is in use: ${hint}`
      : code === 'EACCES'
        ? `port ${options.port} needs privileges this process lacks: ${hint}`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `${options.host} is not an address of this machine: listen on 127.0.0.1, or on 0.0.0.0 for every interface`
          : undefined;
  if (why === undefined) return error;
  const failure = Object.assign(new Error(why), { code });
  failure.stack = `Error: ${why}`; // nothing in Node's listen stack helps the reader
  return failure;
}

/** How one request is answered: `fast(path)` says whether a POST to it is read through `readBody`. */
export interface Answering {
  /** host:port, for a request with no Host header. */
  address: string;
  fast(path: string): boolean;
  /** The request target when the app rewrote `url` (Express's `originalUrl` under a mount path). */
  target?: string;
  /** Given to the handler with each request. */
  options?: HandlerOptions;
  /** Reads the body in place of the socket (a body the app already parsed). */
  read?: (limit: number) => Promise<string | undefined>;
  /** Takes a handler's failure instead of the 500 (an app's `next`), while no header went out. */
  fail?: (error: unknown) => void;
}

/** Answers one request with `fetch`: a Host that names no URL gets 400; a handler that throws, 500 (logged). */
export function answerIncoming(fetch: Fetch, incoming: IncomingMessage, outgoing: ServerResponse, how: Answering): void {
  const url = urlOf(incoming, how.address, how.target);
  if (url === undefined) {
    outgoing
      .writeHead(400, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: 'bad_request', message: 'The Host header or request target is not valid' }));
    return;
  }
  const target = how.target ?? incoming.url!;
  const query = target.indexOf('?');
  const fast = incoming.method === 'POST' && how.fast(query === -1 ? target : target.slice(0, query));
  const request = fast ? mcpPostRequest(incoming, outgoing, url) : fetchRequest(incoming, outgoing, url);
  const client = incoming.socket.remoteAddress; // the span's client.address
  const options = fast
    ? { ...how.options, client, readBody: how.read ?? ((limit: number) => readIncoming(incoming, limit)) }
    : { ...how.options, client };
  fetch(request, options)
    .then((response) => (queueAnswer(outgoing, response) ? undefined : writeResponse(outgoing, response)))
    .catch((error: unknown) => (how.fail && !outgoing.headersSent ? how.fail(error) : answerFailure(outgoing, error)));
}

/** Listens and resolves once it does; a handler that throws is answered 500 and logged, never left hanging. */
export function listenFetch(fetch: Fetch, options: ListenOptions): Promise<Listening> {
  const answering: Answering = { address: '', fast: (path) => options.fastPaths?.has(path) === true };
  let working = 0; // calls whose response has not ended: close() waits for them
  let drained: (() => void) | undefined; // close()'s wait, told when the last of them ends
  const server = createServer((incoming, outgoing) => {
    // Streams that stay open until the client leaves (an older client's GET, subscriptions/listen, whose Mcp-Method
    // header the endpoint checks against the body) are no work to wait for.
    if (incoming.method !== 'GET' && incoming.headers['mcp-method'] !== 'subscriptions/listen') {
      working++;
      outgoing.once('close', () => --working === 0 && drained?.());
    }
    answerIncoming(fetch, incoming, outgoing, answering);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const info = server.address() as AddressInfo;
      answering.address = `${info.family === 'IPv6' ? `[${info.address}]` : info.address}:${info.port}`;
      resolve({
        address: answering.address,
        port: info.port,
        close: async (deadline = 0) => {
          // Whichever comes first: the last call's response ends, or the deadline.
          if (working > 0 && deadline > Date.now()) {
            let timer: ReturnType<typeof setTimeout> | undefined;
            await Promise.race([
              new Promise<void>((done) => (drained = done)),
              new Promise<void>((done) => (timer = setTimeout(done, deadline - Date.now()))),
            ]);
            clearTimeout(timer);
          }
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeAllConnections();
          await closed;
        },
      });
    });
  });
}

/** True when the request's Content-Length declares more than `limit` bytes: its body is refused unread. */
export function declaresMore(incoming: IncomingMessage, limit: number): boolean {
  const declared = incoming.headers['content-length'];
  return declared !== undefined && Number(declared) > limit;
}

/**
 * Reads a POST body straight from Node's IncomingMessage, far cheaper than a Fetch Request and web streams.
 * Resolves it as UTF-8 text (a leading BOM dropped, as `Request.text()` does), or undefined once it passes `limit` bytes;
 * rejects with decodeUtf8's TypeError when it is not UTF-8.
 */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<string | undefined> {
  if (declaresMore(incoming, limit)) return Promise.resolve(undefined); // 413 before a byte is read
  if (incoming.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Node discards what is left of the body once the 413 is sent.
        done();
        resolve(undefined);
      } else chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      try {
        resolve(decodeUtf8(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
      } catch (error) {
        reject(error); // not UTF-8: the handler answers -32700
      }
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
