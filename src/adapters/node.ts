// Serving a Parley server from Node on node:http: loopback by default, with the Host checked.
import { createHmac, createSecretKey, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { createFetchHandler, type FetchHandler } from '../http/handler';
import { useNativeHmac, useNativeTextCodec } from '../crypto';
import { usePlainResponses } from '../http/respond';
import { configOf, type ServerInput } from '../server/instance';
import { fetchRequest, mcpPostRequest, urlOf } from './node-request';
import { plainResponse, writeResponse } from './node-response';

// JSON answers are written to the socket as they are, with no Fetch Response built for them.
usePlainResponses(plainResponse);

// requestState's payload is encoded with Buffer here: the same text as the Web Crypto path, without a loop over bytes.
const BASE64URL = /^[A-Za-z0-9_-]*$/;
useNativeTextCodec({
  encode: (text) => Buffer.from(text, 'utf8').toString('base64url'),
  // Buffer skips characters it does not know: check first, as the Web codec does.
  decode: (text) => (BASE64URL.test(text) && text.length % 4 !== 1 ? Buffer.from(text, 'base64url').toString('utf8') : undefined),
});

// requestState is signed with node:crypto here: the same bytes as WebCrypto, with no thread-pool round trip per request.
useNativeHmac((secret) => {
  const key = createSecretKey(secret);
  const mac = (data: string) => createHmac('sha256', key).update(data).digest();
  return {
    sign: (data) => new Uint8Array(mac(data)),
    verify: (signature, data) => {
      const expected = mac(data);
      return signature.length === expected.length && timingSafeEqual(signature, expected);
    },
  };
});

export interface NodeServeOptions {
  port?: number;
  /** Default 127.0.0.1: only this machine can connect. */
  host?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Announces list changes and resource updates to open subscriptions/listen streams. */
  changes: FetchHandler['changes'];
  close(): Promise<void>;
}

/**
 * Serves the server over HTTP on Node and resolves once it listens.
 * @example const { url } = await serve(Server, { port: 3000 }); // http://127.0.0.1:3000/mcp
 */
export async function serve(input: ServerInput, options: NodeServeOptions = {}): Promise<RunningServer> {
  const config = configOf(input);
  const host = options.host ?? config.http?.host ?? '127.0.0.1';
  const port = options.port ?? config.http?.port ?? Number(process.env.PORT ?? 3000);
  const loopback = host === '127.0.0.1' || host === 'localhost' || host === '::1';
  // Bound to loopback, a request naming another Host is a DNS-rebinding attempt.
  const http = { ...config.http, allowedHosts: config.http?.allowedHosts ?? (loopback ? [] : undefined) };
  const handler = createFetchHandler({ ...config, http });
  const mcpPaths = new Set([http.path ?? '/mcp', '/']);
  let listening = '';
  const server = createServer((incoming, outgoing) => {
    const url = urlOf(incoming, listening);
    if (url === undefined) {
      outgoing.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad_request', message: 'The Host header or request target is not valid' }));
      return;
    }
    const target = incoming.url!;
    const query = target.indexOf('?');
    // An MCP POST skips the Fetch Request: its body is read from the socket, far cheaper than a web stream.
    const fast = incoming.method === 'POST' && mcpPaths.has(query === -1 ? target : target.slice(0, query));
    const request = fast ? mcpPostRequest(incoming, outgoing, url) : fetchRequest(incoming, outgoing, url);
    handler(request, fast ? { readBody: (limit) => readIncoming(incoming, limit) } : {})
      .then((response) => writeResponse(outgoing, response))
      .catch((error: unknown) => {
        console.error('[parley] ERROR Could not answer a request:', error);
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end(outgoing.headersSent ? undefined : JSON.stringify({ error: 'internal_error' }));
      });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const info = server.address() as AddressInfo;
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      listening = `${shownHost}:${info.port}`;
      resolve({
        url: `http://${listening}${http.path ?? '/mcp'}`,
        port: info.port,
        changes: handler.changes,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * Reads a POST body straight from Node's IncomingMessage, far cheaper than a Fetch Request and web streams.
 * Resolves it as UTF-8 text (a leading BOM dropped, as `Request.text()` does), or undefined once it passes `limit` bytes.
 */
function readIncoming(incoming: Readable, limit: number): Promise<string | undefined> {
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
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    incoming.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
