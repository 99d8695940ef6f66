// fetch() over a fresh connection for every request (node:http, agent: false). Load tests use it: a pooled keep-alive
// connection the server closes as it idles out may be reused in that instant and fail (UND_ERR_SOCKET), a race of the
// client's pool that says nothing about the server under test.
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';

export async function freshFetch(request: Request): Promise<Response> {
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const url = new URL(request.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers: Object.fromEntries(request.headers),
        agent: false,
      },
      (incoming) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(incoming.headers))
          if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
        const status = incoming.statusCode ?? 500;
        const stream = status === 204 || status === 304 ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
        if (!stream) incoming.resume();
        resolve(new Response(stream, { status, headers }));
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}
