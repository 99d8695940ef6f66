// parley dev over HTTP: the server's fetch handler on 127.0.0.1, with every exchange shown in the dev log.
import { listenError, listenFetch } from '../adapters/node-listen';
import { createFetchHandler } from '../http/handler';
import type { FrontMcpConfigInput } from '../server/config';
import type { ExchangeLog } from './dev-log';

const tryJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Resolves with the URL once the server listens; loopback only, so other Host headers are refused. */
export function serveDevHttp(config: FrontMcpConfigInput, port: number, log: ExchangeLog): Promise<string> {
  const handler = createFetchHandler({ ...config, http: { ...config.http, allowedHosts: [] } });
  const path = config.http?.path ?? '/mcp';
  const observed = async (request: Request): Promise<Response> => {
    if (request.method === 'POST') log.inbound(tryJson(await request.clone().text()));
    const response = await handler(request);
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) void response.clone().text().then((text) => log.outbound(tryJson(text)));
    else if (type.includes('text/event-stream') && response.body) {
      const [toClient, toLog] = response.body.tee();
      void readEvents(toLog, (data) => log.outbound(tryJson(data)));
      return new Response(toClient, response);
    } else if (request.method === 'POST' && response.status >= 400) log.refused(response.status, new URL(request.url).pathname);
    return response;
  };
  const listen = { host: '127.0.0.1', port };
  return listenFetch(observed, listen).then(
    (listening) => `http://${listening.address}${path}`,
    (error: unknown) => Promise.reject(listenError(error, listen, 'pass --port N (0 picks a free one), or set PORT')),
  );
}

async function readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer.slice(0, end).split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      buffer = buffer.slice(end + 2);
      if (data.trim()) onData(data);
    }
  }
}
