// An answer whose publish was counted as heard, yet missed the waiting instance (its connection to Redis was down,
// and another subscriber made the count): the waiter reads the kept answer once its connection is back. A real
// redis-server; the waiting instance reaches it through a TCP link the test can cut, as a network partition would.
import { createServer, type Server, type Socket, connect as tcp } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PendingQuestions } from '../../src/engine/legacy/pending';
import { createRedisStore } from '../../src/stores/redis';
import { QuestionKeys } from '../../src/stores';
import { quiet, storeOf } from '../helpers/pending-store';
import { startRedis, type RunningRedis } from '../helpers/redis';

let redis: RunningRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** A TCP link to Redis: `cut()` drops every connection through it and refuses new ones until `mend()`. */
async function link(port: number): Promise<{ port: number; cut(): void; mend(): void; close(): Promise<void> }> {
  const open = new Set<Socket>();
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = tcp(port, '127.0.0.1');
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.on('close', () => (open.delete(from), to.destroy()));
      from.on('error', () => to.destroy());
      from.pipe(to);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    cut: () => {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    mend: () => void (refusing = false),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

it('an answer published while the waiting instance was cut off reaches its call when the connection is back, and is removed after', async () => {
  const wire = await link(redis.port);
  const [one, two] = [
    await createRedisStore({ provider: 'redis', host: '127.0.0.1', port: wire.port }),
    await createRedisStore({ provider: 'redis', url: redis.url }),
  ];
  const [a, b] = [new PendingQuestions(storeOf(one), quiet), new PendingQuestions(storeOf(two), quiet)];
  // Another subscriber on the answer's channel, as a stale subscription on a demoted cluster master counts.
  const other = new Redis(redis.url);
  const inspect = new Redis(redis.url);
  try {
    const question = await a.open({ sessionId: 's1', caller: 'c1' }, 'e-1', { message: 'Sure?' }, 60_000);
    // Names as the question store keys them (no session or request id in plain).
    const names = new QuestionKeys('mcp:', storeOf(one).secret);
    const [channel, kept] = [await names.name('result', 's1', 'e-1'), await names.name('answer', 's1', 'e-1')];
    await other.subscribe(channel);
    wire.cut();
    expect(await b.deliver('s1', 'e-1', { action: 'accept', content: { sure: true } })).toBe('delivered');
    expect(await inspect.exists(kept)).toBe(1);
    wire.mend();
    await expect(Promise.race([question.answer, new Promise((r) => setTimeout(() => r('not heard within 8 s'), 8_000))])).resolves.toEqual({
      action: 'accept',
      content: { sure: true },
    });
    await question.close();
    expect(await inspect.exists(kept)).toBe(0);
  } finally {
    other.disconnect();
    inspect.disconnect();
    await Promise.all([one.close(), two.close()]);
    await wire.close();
  }
}, 20_000);

it('an answer nobody hears is refused and not kept', async () => {
  const store = await createRedisStore({ provider: 'redis', url: redis.url });
  const b = new PendingQuestions(storeOf(store), quiet);
  const inspect = new Redis(redis.url);
  try {
    // A question recorded by an instance that is gone: its record is there, its subscription is not.
    const gone = await createRedisStore({ provider: 'redis', url: redis.url });
    await new PendingQuestions(storeOf(gone), quiet).open({ sessionId: 's2', caller: 'c1' }, 'e-2', { message: 'Sure?' }, 60_000);
    await gone.close();
    expect(await b.deliver('s2', 'e-2', { action: 'decline' })).toBe('no-listener');
    const kept = await new QuestionKeys('mcp:', storeOf(store).secret).name('answer', 's2', 'e-2');
    expect(await inspect.exists(kept)).toBe(0);
  } finally {
    inspect.disconnect();
    await store.close();
  }
}, 20_000);
