// A Worker that drives the Redis-over-HTTP store from inside workerd, for tests: one route per store method.
import { redisHttpStore } from '../../../src/stores/redis-http';

type Env = { UPSTASH_REDIS_REST_URL: string; UPSTASH_REDIS_REST_TOKEN: string };

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const store = redisHttpStore({}, env);
    const q = new URL(request.url).searchParams;
    const key = q.get('key') ?? '';
    const text = (value: string | undefined) => new Response(value ?? '(none)');
    try {
      switch (new URL(request.url).pathname) {
        case '/set':
          await store.set(key, await request.text(), q.has('ttl') ? Number(q.get('ttl')) : undefined);
          return text('ok');
        case '/get':
          return text(await store.get(key));
        case '/take':
          return text(await store.take(key));
        case '/publish':
          await store.publish(q.get('channel')!, await request.text());
          return text('ok');
        case '/next-message': {
          // Subscribes, says so in the store, and answers with the first message: the response waits on the stream.
          let got!: (message: string) => void;
          const message = new Promise<string>((resolve) => (got = resolve));
          const stop = await store.subscribe(q.get('channel')!, got);
          await store.set(`${q.get('channel')}:ready`, 'yes');
          const first = await message;
          await stop();
          return text(first);
        }
      }
      return new Response('not found', { status: 404 });
    } catch (error) {
      return new Response(String(error), { status: 500 });
    }
  },
};
