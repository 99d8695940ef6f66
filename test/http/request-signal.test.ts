// A request's signal on HTTP (http/sse.ts): it fires when the request's own signal does, and once the call is answered
// it lets go of that signal, so a long-lived one (a host's, shared by its requests) gathers no listener per call.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../src/app/build-server';
import { respondToRequest } from '../../src/http/sse';
import { legacyDesk } from '../fixtures/legacy-desk';

const server = await buildServer(legacyDesk());

describe("a call's signal over HTTP", () => {
  it('leaves no listener on a long-lived request signal once each call is answered, or fails', async () => {
    const shared = new AbortController();
    for (let i = 0; i < 50; i++) {
      await respondToRequest(
        server,
        i,
        () => shared.signal,
        async (stream) => {
          expect(stream.signal.aborted).toBe(false);
          if (i % 2) throw new Error('failed');
          return {};
        },
      ).catch(() => {});
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it("fires with the request signal's reason while the call runs", async () => {
    const request = new AbortController();
    const heard = respondToRequest(
      server,
      1,
      () => request.signal,
      (stream) => {
        const { signal } = stream;
        request.abort(new Error('the client left'));
        return Promise.resolve({ aborted: signal.aborted, reason: (signal.reason as Error).message });
      },
    );
    expect(await (await heard).json()).toMatchObject({ result: { aborted: true, reason: 'the client left' } });
  });

  it('is aborted at once when the request signal already was', async () => {
    const request = new AbortController();
    request.abort(new Error('gone before'));
    const heard = respondToRequest(
      server,
      1,
      () => request.signal,
      async (stream) => ({ aborted: stream.signal.aborted }),
    );
    expect(await (await heard).json()).toMatchObject({ result: { aborted: true } });
    expect(getEventListeners(request.signal, 'abort')).toHaveLength(0);
  });
});
