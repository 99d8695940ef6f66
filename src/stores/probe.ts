// Proving at startup that a store's publish/subscribe works: subscribe to a fresh channel, publish, wait for the echo.
import type { StoreBackend } from './types';

/** Resolves when a message published on a fresh channel came back; rejects with the reason it didn't. */
export async function probePubSub(store: StoreBackend, keyPrefix: string, timeoutMs = 5_000): Promise<void> {
  const channel = `${keyPrefix}probe:${crypto.randomUUID()}`;
  const token = crypto.randomUUID();
  let heard!: () => void;
  const echoed = new Promise<void>((resolve) => (heard = resolve));
  const stop = await store.subscribe(channel, (message) => {
    if (message === token) heard();
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await store.publish(channel, token);
    await Promise.race([
      echoed,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no message came back within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
    await stop();
  }
}
