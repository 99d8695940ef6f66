// Writing a handler's Response to Node's ServerResponse, and the plain Response parley-mcp/node writes without building one.
import type { ServerResponse } from 'node:http';
import { createLogger, createRedactor, secretsIn } from '../runtime';
import { INTERNAL_ERROR, problemBody } from '../protocol';
import { standIn } from './stand-in';
import { StreamedResponse } from './node-stream';
import { writable } from './node-backpressure';

type Init = { status: number; headers: Record<string, string> };

/**
 * A JSON (or empty) response that parley-mcp/node sends as it is: building undici's Response costs more than the rest of
 * a simple call. Whoever reads it as a Response gets the real one, built on first use, so it behaves as a Response.
 */
export class PlainResponse {
  #real: Response | undefined;

  // Named apart from Response's own members (text(), ...), which must keep reading the real one.
  constructor(
    readonly plainText: string | null,
    readonly plainInit: Init,
  ) {}

  get real(): Response {
    return (this.#real ??= new Response(this.plainText, this.plainInit));
  }

  /** True while nobody has read it as a Response: its plain text and init are still what to send. */
  get untouched(): boolean {
    return this.#real === undefined;
  }

  get status(): number {
    return this.plainInit.status;
  }
}

standIn(PlainResponse, Response);

export const plainResponse = (text: string | null, status: number, headers: Record<string, string>): Response =>
  new PlainResponse(text, { status, headers }) as unknown as Response;

/** A request whose answer could not be made or written: logged, and answered 500 unless its headers already went out. */
export function answerFailure(outgoing: ServerResponse, error: unknown): void {
  createLogger('error', undefined, createRedactor(secretsIn())).error('Could not answer a request:', error);
  if (outgoing.headersSent) outgoing.end();
  else outgoing.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(problemBody('internal_error', INTERNAL_ERROR)));
}

/** Writes a plain response's text as it is, with its content length. */
export function writePlain(outgoing: ServerResponse, { plainText: text, plainInit: init }: PlainResponse): void {
  if (text !== null) init.headers['content-length'] = String(Buffer.byteLength(text)); // the init is this response's own
  outgoing.writeHead(init.status, init.headers);
  outgoing.end(text ?? undefined);
}

/**
 * Sends a Fetch Response (plain ones wait for the turn's end: node-turn.ts); a streamed body is written as the client
 * takes it and cancelled if the client goes away, a StreamedResponse's events with no web stream between.
 */
export function writeResponse(outgoing: ServerResponse, response: Response): Promise<void> | undefined {
  if (response instanceof StreamedResponse && response.untouched) {
    response.writeTo(outgoing);
    return undefined;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  outgoing.writeHead(response.status, headers);
  if (!response.body) {
    outgoing.end();
    return undefined;
  }
  outgoing.flushHeaders(); // a stream (SSE) that waits before its first event must still show its headers
  return pipeBody(outgoing, response.body);
}

async function pipeBody(outgoing: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A client that reads slowly holds the stream back: its source is read no faster than the socket takes it.
      if (!outgoing.write(value)) await writable(outgoing);
      if (outgoing.destroyed) break;
    }
  } catch {
    // The stream failed or was cancelled because the client left: nothing more to send.
  }
  outgoing.end();
}
