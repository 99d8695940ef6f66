// The inbox's server-sent events: the same view as GET /questions, sent at once and again on every change.
import { sseComment, sseFrame } from '../protocol';
import type { Inbox } from './inbox';

const HEARTBEAT_MS = 15_000;

/** `address`: the page's client, for the decision log's views (an EventSource is always the page). */
export function questionEvents(service: Inbox, subject: string, request: { signal: AbortSignal; address?: string }): Response {
  const { signal } = request;
  const seen = { channel: 'page' as const, ...(request.address ? { address: request.address } : {}) };
  let stop: (() => void) | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let last = '';
      let busy = false;
      let again = false;
      let closed = false;
      const write = (chunk: Uint8Array) => {
        if (closed) return;
        try {
          controller.enqueue(chunk);
        } catch {
          stop?.(); // the reader went away
        }
      };
      // One refresh at a time; a change during one runs one more. A heartbeat also refreshes, for questions that expired.
      const refresh = async (): Promise<void> => {
        if (closed) return;
        if (busy) {
          again = true;
          return;
        }
        busy = true;
        try {
          const data = JSON.stringify(await service.view(subject, seen));
          if (data !== last) write(sseFrame({ event: 'questions', data }));
          else write(sseComment('ping'));
          last = data;
        } catch {
          write(sseComment('refresh failed'));
        } finally {
          busy = false;
          if (again) {
            again = false;
            void refresh();
          }
        }
      };
      const unsubscribe = await service.store.backend.subscribe(await service.store.subjectChannel(subject), () => void refresh());
      const timer = setInterval(() => void refresh(), HEARTBEAT_MS);
      stop = () => {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        void unsubscribe().catch(() => {});
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      };
      signal.addEventListener('abort', stop, { once: true });
      write(sseFrame({ retry: 2000 }));
      await refresh();
    },
    cancel() {
      stop?.();
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
