// parley-mcp/node writes an event stream's events straight to the socket (StreamedResponse): what a ReadableStream would
// send, closed and cancelled as one would be, and a real Response for whoever reads it as one.
import { afterEach, describe, expect, it } from 'vitest';
import { listenFetch, type Listening } from '../../src/adapters/node-listen';
import { type StreamedResponse, streamedResponse } from '../../src/adapters/node-stream';
import type { StreamSource } from '../../src/protocol';

const bytes = (text: string) => new TextEncoder().encode(text);

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

/** A real node:http server whose every request is answered by `answer()`. */
async function serveStream(answer: () => Response): Promise<string> {
  listening = await listenFetch(async () => answer(), { host: '127.0.0.1', port: 0 });
  return `http://${listening.address}/`;
}

/** A source that sends `start` at once, then one event per pull, then closes. */
function countingSource(events: number): StreamSource & { pulls: number } {
  const source = {
    pulls: 0,
    start(controller: ReadableStreamDefaultController<Uint8Array>) {
      controller.enqueue(bytes('data: start\n\n'));
    },
    async pull(controller: ReadableStreamDefaultController<Uint8Array>) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (++source.pulls > events) return controller.close();
      controller.enqueue(bytes(`data: ${source.pulls}\n\n`));
    },
  };
  return source;
}

describe('an event stream on parley-mcp/node', () => {
  it('sends what start queued, then each pulled event, with the SSE headers, and ends when the source closes', async () => {
    const source = countingSource(3);
    const url = await serveStream(() => streamedResponse(source));
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(await response.text()).toBe('data: start\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\n');
    expect(source.pulls).toBe(4);
  });

  it('cancels the source when the client goes away; the controller then throws, as a closed stream controller does', async () => {
    let cancelled: () => void;
    const cancel = new Promise<void>((resolve) => (cancelled = resolve));
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const url = await serveStream(() =>
      streamedResponse({
        start: (c) => void (controller = c),
        pull: (c) => c.enqueue(bytes('data: once\n\n')) ?? new Promise(() => {}), // then waits for ever
        cancel: () => cancelled(),
      }),
    );
    const client = new AbortController();
    const response = await fetch(url, { signal: client.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: once\n\n');
    client.abort();
    await cancel;
    expect(() => controller.enqueue(bytes('data: late\n\n'))).toThrow(TypeError);
    expect(() => controller.close()).toThrow(TypeError);
  });

  it('ends the response with what was sent when the source fails', async () => {
    let pulls = 0;
    const url = await serveStream(() =>
      streamedResponse({
        pull: async (c) => {
          if (++pulls === 2) throw new Error('the source broke');
          c.enqueue(bytes('data: first\n\n'));
        },
      }),
    );
    expect(await (await fetch(url)).text()).toBe('data: first\n\n');
  });

  it('is a Response to whoever reads it as one, with the same events, and is then written as that Response', async () => {
    const direct = streamedResponse(countingSource(2));
    expect(direct).toBeInstanceOf(Response);
    expect(direct.headers.get('content-type')).toBe('text/event-stream');
    expect(await direct.text()).toBe('data: start\n\ndata: 1\n\ndata: 2\n\n');

    // A wrapper that reads a header before the answer is written: the real Response goes out, events and all.
    const url = await serveStream(() => {
      const response = streamedResponse(countingSource(2));
      expect((response as unknown as StreamedResponse).untouched).toBe(true);
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      expect((response as unknown as StreamedResponse).untouched).toBe(false);
      return response;
    });
    expect(await (await fetch(url)).text()).toBe('data: start\n\ndata: 1\n\ndata: 2\n\n');
  });
});
