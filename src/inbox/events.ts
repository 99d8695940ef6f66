// The inbox's server-sent events: the same view as GET /questions, sent at once and again on every change.
import { sseComment, sseFrame } from '../protocol';
import type { Inbox } from './inbox';
import { type InboxPerson, listsFor } from './addressees';

const HEARTBEAT_MS = 15_000;

/** `address`: the page's client, for the decision log's views (an EventSource is always the page). */
export function questionEvents(service: Inbox, person: InboxPerson, request: { signal: AbortSignal; address?: string }): Response {
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
          const data = JSON.stringify(await service.view(person, seen));
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
      // The person's subject's channel, and that of each list of questions addressed to them (their groups' too).
      const { store } = service;
      const channels = [store.subjectChannel(person.subject), ...listsFor(person).map((list) => store.subjectChannel(list))];
      const stops = await Promise.all(
        (await Promise.all(channels)).map((channel) => store.backend.subscribe(channel, () => void refresh())),
      );
      const unsubscribe = () => Promise.all(stops.map((off) => off()));
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
