// Reading a text/event-stream body: yields each event's data, joined across its data: lines.
interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let buffer = '';
  let event: { event: string; data: string[]; id?: string } = { event: 'message', data: [] };
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        if (signal?.aborted) return { done: true as const, value: undefined };
        throw error;
      });
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (event.data.length) yield { event: event.event, data: event.data.join('\n'), id: event.id };
          event = { event: 'message', data: [] };
          continue;
        }
        if (line.startsWith(':')) continue; // a comment (keep-alive)
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') event.data.push(value);
        else if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
      }
    }
    if (event.data.length) yield { event: event.event, data: event.data.join('\n'), id: event.id };
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Also when the reader stopped early: let the server see the stream close.
    void reader.cancel().catch(() => {});
  }
}
