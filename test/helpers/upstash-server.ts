// A local server for the Upstash REST protocol over a real redis-server, so Redis over HTTP is tested against real Redis.
// No local server for this protocol exists in any registry; this one speaks what @upstash/redis sends: single commands
// (POST / with a JSON array), /pipeline, /multi-exec, /subscribe/<channel> as server-sent events, Bearer auth, and
// base64 replies when the client asks with `Upstash-Encoding: base64`.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

export interface UpstashServer {
  url: string;
  token: string;
  /** Each request's route and, for commands, their names: lets a test see that nothing polls. */
  log: string[];
  /** How many subscription streams are open. */
  openStreams(): number;
  /** Cuts every open subscription stream's connection, as a network drop would; returns how many it cut. */
  dropStreams(): number;
  close(): Promise<void>;
}

type Reply = { result: unknown } | { error: string };

const encode = (value: unknown): unknown =>
  typeof value === 'string' ? Buffer.from(value).toString('base64') : Array.isArray(value) ? value.map(encode) : value;

const isCommand = (c: unknown): c is (string | number)[] =>
  Array.isArray(c) && c.length > 0 && c.every((part) => typeof part === 'string' || typeof part === 'number');

const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) });

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface UpstashServerOptions {
  token?: string;
  /** false: refuse /subscribe, as a REST endpoint without publish/subscribe (Vercel KV's) does. */
  subscribe?: boolean;
  /** A request body larger than this is refused as Upstash refuses one over its plan's limit. */
  maxRequestBytes?: number;
}

export async function startUpstashServer(
  redisUrl: string,
  { token = 'test-token', subscribe: canSubscribe = true, maxRequestBytes = Number.POSITIVE_INFINITY }: UpstashServerOptions = {},
): Promise<UpstashServer> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  // A Redis that goes away (a test stops or kills it) is answered as an error per command; the event is not news.
  redis.on('error', () => undefined);
  await redis.connect();
  const log: string[] = [];
  const streams = new Set<{ response: ServerResponse; subscriber: Redis }>();

  const run = async (command: (string | number)[]): Promise<Reply> => {
    try {
      const [name, ...args] = command;
      return { result: await redis.call(String(name), ...args.map(String)) };
    } catch (error) {
      return errorOf(error);
    }
  };

  const transaction = async (commands: (string | number)[][]): Promise<Reply[] | { error: string }> => {
    const multi = redis.multi();
    for (const [name, ...args] of commands) multi.call(String(name), ...args.map(String));
    const results = await multi.exec().catch((error: unknown) => errorOf(error));
    if (results === null) return { error: 'EXECABORT Transaction discarded' };
    if (!Array.isArray(results)) return results;
    return results.map(([error, result]) => (error ? errorOf(error) : { result }));
  };

  async function subscribe(channel: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const subscriber = redis.duplicate();
    subscriber.on('error', () => undefined);
    const stream = { response, subscriber };
    streams.add(stream);
    request.on('close', () => {
      streams.delete(stream);
      subscriber.disconnect();
    });
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) response.write(`data: message,${channel},${message}\n\n`);
    });
    const count = await subscriber.subscribe(channel);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write(`data: subscribe,${channel},${count}\n\n`);
  }

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0]!;
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    if (request.method !== 'POST') return send(405, { error: 'Method not allowed' });
    if (path.startsWith('/subscribe/')) {
      log.push('/subscribe');
      if (!canSubscribe) return send(400, { error: 'ERR SUBSCRIBE is not supported' });
      return subscribe(path.slice('/subscribe/'.length), request, response);
    }
    const raw = await readBody(request);
    if (raw.byteLength > maxRequestBytes) {
      log.push(`${path} refused: too large`);
      return send(400, { error: 'ERR max request size exceeded' });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8') || 'null');
    } catch {
      body = undefined;
    }
    const base64 = request.headers['upstash-encoding'] === 'base64';
    const out = (reply: Reply) => ('result' in reply && base64 ? { result: encode(reply.result) } : reply);
    if (path === '/') {
      if (!isCommand(body)) return send(400, { error: 'ERR the body must be a JSON array of a command and its arguments' });
      log.push(`/ ${body[0]}`);
      const reply = await run(body);
      return send('error' in reply ? 400 : 200, out(reply));
    }
    if (path === '/pipeline' || path === '/multi-exec') {
      if (!Array.isArray(body) || !body.every(isCommand)) return send(400, { error: 'ERR the body must be a JSON array of commands' });
      log.push(`${path} ${body.map((c) => c[0]).join(',')}`);
      const replies = path === '/pipeline' ? await Promise.all(body.map(run)) : await transaction(body);
      return Array.isArray(replies) ? send(200, replies.map(out)) : send(400, replies);
    }
    send(404, { error: 'Not found' });
  }

  const server = createServer((request, response) => {
    route(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify(errorOf(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    log,
    openStreams: () => streams.size,
    dropStreams() {
      const cut = streams.size;
      for (const { response, subscriber } of streams) {
        subscriber.disconnect();
        response.socket?.destroy();
      }
      streams.clear();
      return cut;
    },
    async close() {
      for (const { response, subscriber } of streams) {
        subscriber.disconnect();
        response.end();
      }
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}
