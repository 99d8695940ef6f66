// A stand-in for AWS Lambda's function URLs with response streaming (InvokeMode: RESPONSE_STREAM), because neither
// Lambda nor a local runner of streaming function URLs can run here. It holds to the documented contract, the same on
// both sides of a handler: the `awslambda` global of the Node.js runtime (streamifyResponse marks a streaming handler,
// HttpResponseStream.from writes the status, headers and cookies as a JSON prelude ended by 8 NUL bytes before the
// body), and the function URL's event, payload format 2.0 (rawPath, rawQueryString, lowercase headers,
// requestContext.http with the method and sourceIp, a base64 body). Each Request becomes one invocation; the Response
// streams the body as the handler writes it, as a function URL does.
import { PassThrough } from 'node:stream';

type StreamingHandler = (event: unknown, responseStream: PassThrough, context: unknown) => Promise<void>;

const DELIMITER = Buffer.alloc(8); // the prelude's end: 8 NUL bytes (JSON text never holds one)
const NULL_BODY = new Set([101, 204, 205, 304]);

/** What the Lambda Node.js runtime puts in scope for a streaming handler. */
export function installAwsLambdaGlobal(): void {
  (globalThis as Record<string, unknown>).awslambda = {
    streamifyResponse: (handler: StreamingHandler) => handler,
    HttpResponseStream: {
      from(stream: PassThrough, metadata: { statusCode?: number; headers?: Record<string, string>; cookies?: string[] }) {
        stream.write(JSON.stringify(metadata));
        stream.write(DELIMITER);
        return stream;
      },
    },
  };
}

/** A function URL's event for a Request (payload format 2.0), from `sourceIp`. */
async function eventOf(request: Request, domain: string, sourceIp: string) {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    if (name !== 'cookie') headers[name] = value; // a function URL moves cookies to their own list
  });
  headers.host = domain;
  const body = Buffer.from(await request.arrayBuffer());
  const now = new Date();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    cookies: request.headers.get('cookie')?.split('; '),
    headers,
    requestContext: {
      accountId: 'anonymous',
      apiId: domain.split('.')[0],
      domainName: domain,
      domainPrefix: domain.split('.')[0],
      http: { method: request.method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId: crypto.randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    body: body.length > 0 ? body.toString('base64') : undefined,
    isBase64Encoded: body.length > 0,
  };
}

/**
 * A fetch that invokes `handler` as a function URL would: the prelude becomes the status and headers, the rest the
 * body, streamed. A client that cancels the body closes the response stream, as a dropped connection does.
 */
export function functionUrlFetch(handler: unknown, options: { domain?: string; sourceIp?: string } = {}): typeof fetch {
  const { domain = 'abc123xyz.lambda-url.us-east-1.on.aws', sourceIp = '198.51.100.23' } = options;
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const event = await eventOf(new Request(input, init), domain, sourceIp);
    const out = new PassThrough();
    out.on('error', () => {}); // a write after the client left: the handler's own business, as on Lambda
    const context = { awsRequestId: event.requestContext.requestId, functionName: 'parley-mcp', getRemainingTimeInMillis: () => 900_000 };
    (handler as StreamingHandler)(event, out, context).catch((error: unknown) => out.destroy(error as Error));
    const chunks = out[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    let head = Buffer.alloc(0);
    let at = -1;
    while ((at = head.indexOf(DELIMITER)) === -1) {
      const next = await chunks.next();
      if (next.done) throw new Error(`the handler ended its response stream without the prelude: ${head.toString()}`);
      head = Buffer.concat([head, next.value]);
    }
    const prelude = JSON.parse(head.subarray(0, at).toString()) as {
      statusCode: number;
      headers?: Record<string, string>;
      cookies?: string[];
    };
    const headers = new Headers(prelude.headers);
    for (const cookie of prelude.cookies ?? []) headers.append('set-cookie', cookie);
    const first = head.subarray(at + DELIMITER.length);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (first.length > 0) controller.enqueue(new Uint8Array(first));
      },
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      },
      cancel() {
        out.destroy();
      },
    });
    return new Response(NULL_BODY.has(prelude.statusCode) ? null : body, { status: prelude.statusCode, headers });
  }) as typeof fetch;
}
