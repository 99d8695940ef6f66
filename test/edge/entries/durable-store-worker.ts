// A Worker that drives the Durable Objects store from inside workerd, for tests: one route per store method, a
// subscription as a WebSocket to the test, and ParleyStore with one more route that says what an object keeps.
import { ParleyStore } from '../../../src/stores/durable-object';
import { durableObjectsStore } from '../../../src/stores/durable-objects';
import type { DurableObjectNamespaceLike } from '../../../src/stores/provided';

type Env = Record<string, DurableObjectNamespaceLike>;
type TestSocket = WebSocket & { accept(): void };

/**
 * ParleyStore, and two routes: `/left`, the tables and alarm the object still has (nothing, once its value is gone), and
 * `/drop`, which closes every subscriber's socket as a restart of the object (a deploy) does.
 */
export class InspectedStore extends ParleyStore {
  override async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/drop') {
      const sockets = (this.ctx as unknown as { getWebSockets(): { close(code: number, reason: string): void }[] }).getWebSockets();
      for (const socket of sockets) socket.close(1012, 'restarting');
      return new Response(String(sockets.length));
    }
    // An alarm delivered late, as at-least-once alarms may be: after its value went, or twice.
    if (path === '/alarm') return this.alarm().then(() => new Response('ran'));
    if (path !== '/left') return super.fetch(request);
    const storage = this.ctx.storage as typeof this.ctx.storage & { getAlarm(): Promise<number | null> };
    const tables = storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'").toArray();
    return Response.json({ tables: tables.map((t) => t.name), alarm: await storage.getAlarm() });
  }
}

/** The same, with alarms that do nothing: an expired value must stay unread with no alarm to remove it. */
export class HeldStore extends InspectedStore {
  override async alarm(): Promise<void> {}
}

/** A SQLite-less class (declared with new_classes): the store must say so, not crash. */
export class KvBackedStore extends ParleyStore {}

/** This isolate, so a test can tell two apart (made on the first request: no random values at global scope). */
let isolate: string | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const q = url.searchParams;
    const namespace = env[q.get('ns') ?? 'PARLEY_STORE']!;
    const store = durableObjectsStore(namespace);
    // `pad=N` adds N characters to the key: a key longer than a URL may be.
    const key = (q.get('key') ?? '') + 'x'.repeat(Number(q.get('pad') ?? 0));
    const channel = q.get('channel') ?? '';
    const text = (value: string | undefined) => (value === undefined ? new Response(null, { status: 204 }) : new Response(value));
    try {
      switch (url.pathname) {
        case '/isolate':
          return new Response((isolate ??= crypto.randomUUID()));
        case '/set':
          await store.set(key, await request.text(), q.has('ttl') ? Number(q.get('ttl')) : undefined);
          return new Response('ok');
        case '/get':
          return text(await store.get(key));
        case '/take':
          return text(await store.take(key));
        case '/delete':
          await store.delete(key);
          return new Response('ok');
        case '/publish':
          return new Response(String(await store.publish(channel, await request.text())));
        case '/zadd':
          await store.sortedSets!.add(key, await request.text(), Number(q.get('score')), {
            ttlMs: Number(q.get('ttl') ?? 60_000),
            max: Number(q.get('max') ?? 1000),
            ...(q.has('wake') ? { wake: q.get('wake')! } : {}), // where the Worker is woken, with its self binding
          });
          return new Response('ok');
        case '/zrange':
          return Response.json(await store.sortedSets!.upTo(key, Number(q.get('score')), Number(q.get('limit') ?? 100)));
        case '/zrem':
          await store.sortedSets!.remove(key, await request.text());
          return new Response('ok');
        case '/left':
        case '/alarm':
          return namespace.get(namespace.idFromName(`k:${key}`)).fetch(`https://test${url.pathname}`);
        case '/drop':
          return namespace.get(namespace.idFromName(`c:${channel}`)).fetch('https://test/drop');
        case '/subscribe':
          return subscribe(store, channel);
      }
      return new Response('not found', { status: 404 });
    } catch (error) {
      return new Response(error instanceof Error ? `${error.name}: ${error.message}` : String(error), { status: 500 });
    }
  },
};

/** The test's socket: `c:live` once subscribed, `m:<message>` for each message, `c:stopped` once the test's `stop` ended it. */
async function subscribe(store: ReturnType<typeof durableObjectsStore>, channel: string): Promise<Response> {
  const Pair = (globalThis as unknown as { WebSocketPair: new () => [TestSocket, TestSocket] }).WebSocketPair;
  const [client, server] = new Pair();
  server.accept();
  const stop = await store.subscribe(channel, (message) => server.send(`m:${message}`));
  server.addEventListener('message', async (event) => {
    if (event.data !== 'stop') return;
    await stop();
    server.send('c:stopped');
    server.close(1000, 'stopped');
  });
  server.send('c:live');
  return new Response(null, { status: 101, webSocket: client } as ResponseInit);
}
