// One channel's subscription over the Upstash REST protocol: a server-sent-event stream (POST <url>/subscribe/<channel>)
// that is opened again, with backoff, whenever it drops. What is published while it is down is lost, as over TCP.

interface SubscriptionOptions {
  /** The REST URL without a trailing slash. */
  url: string;
  token: string;
  /** A URL-safe channel name (the protocol puts it in the path as it is). */
  channel: string;
  /** How long one attempt waits for the server's `subscribe` event. */
  openTimeoutMs: number;
  /** Each message, as published. */
  onMessage(message: string): void;
  /** The stream dropped, or opening it again failed; the error says when the next attempt is. */
  onDrop(error: Error): void;
  /** The stream is open again after a drop: what was published meanwhile is lost, and Redis may have restarted. */
  onReopen?(): void;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/**
 * Opens the subscription; resolves once the server confirmed it, with a function that ends it for good. Rejects when
 * the first attempt fails (a wrong token, an endpoint without publish/subscribe); later drops are retried forever.
 */
export async function openSubscription(options: SubscriptionOptions): Promise<() => void> {
  const stop = new AbortController();
  const { ended } = await attempt(options, stop.signal);
  void keepOpen(options, stop.signal, ended);
  return () => stop.abort();
}

/** Each time a stream ends: waits (100 ms, doubling up to 5 s while attempts fail) and opens another, until stopped. */
async function keepOpen(options: SubscriptionOptions, stopped: AbortSignal, first: Promise<Error>): Promise<void> {
  let ended = first;
  for (;;) {
    const reason = await ended;
    let retryMs = FIRST_RETRY_MS;
    let what = `the subscription to ${options.channel} dropped (${reason.message})`;
    for (;;) {
      if (stopped.aborted) return;
      options.onDrop(new Error(`${what}; opening it again in ${retryMs} ms`));
      await sleep(retryMs, stopped);
      if (stopped.aborted) return;
      try {
        ({ ended } = await attempt(options, stopped));
        options.onReopen?.();
        break;
      } catch (error) {
        what = `the subscription to ${options.channel} did not open again (${messageOf(error)})`;
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
      }
    }
  }
}

/** One stream: resolves once the server confirmed the subscription, with the reason the stream will end. */
async function attempt(options: SubscriptionOptions, stopped: AbortSignal): Promise<{ ended: Promise<Error> }> {
  const { url, token, channel, openTimeoutMs } = options;
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('unsubscribed'));
  stopped.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new Error(`the subscription to ${channel} did not open within ${openTimeoutMs} ms`)),
    openTimeoutMs,
  );
  try {
    const response = await fetch(`${url}/subscribe/${channel}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'cache-control': 'no-cache',
      },
      body: '[]',
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(await problemOf(response));
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const ended = readEvents(response.body, controller.signal, (type, message) => {
      if (type === 'subscribe') opened();
      else if (type === 'message') options.onMessage(message);
    }).finally(() => stopped.removeEventListener('abort', abort));
    await Promise.race([open, ended.then((reason) => Promise.reject(reason))]);
    return { ended };
  } catch (error) {
    const reason: unknown = controller.signal.aborted ? controller.signal.reason : undefined; // the timeout, or stopped
    stopped.removeEventListener('abort', abort);
    controller.abort();
    throw reason instanceof Error ? reason : error;
  } finally {
    clearTimeout(timer);
  }
}

/** Reads `data: <type>,<channel>,<message>` lines until the stream ends; resolves with why it ended. */
async function readEvents(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal,
  onEvent: (type: string, message: string) => void,
): Promise<Error> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return new Error('the server ended the stream');
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (!line.startsWith('data: ')) continue;
        const data = line.slice('data: '.length);
        const first = data.indexOf(',');
        const second = data.indexOf(',', first + 1);
        if (first !== -1 && second !== -1) onEvent(data.slice(0, first), data.slice(second + 1));
      }
    }
  } catch (error) {
    return signal.aborted && signal.reason instanceof Error ? signal.reason : new Error(messageOf(error));
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

async function problemOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const error = (JSON.parse(text) as { error?: unknown }).error;
    if (typeof error === 'string') return error;
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
