// The store contract as one test body: every backend runs it against the real thing (memory, SQLite, Redis, Redis over HTTP,
// Durable Objects in workerd).
// STORES=memory,sqlite narrows it to some backends.
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreBackend } from '../../src/stores';

/** Makes a fresh backend; two made by one factory share their data when the backend is `distributed`. */
export type StoreFactory = () => Promise<StoreBackend>;

/** The backends the suite runs against, as each names its `type`; a suite's title starts with it. */
const STORE_TYPES = ['memory', 'sqlite', 'redis', 'redis-cluster', 'redis-http', 'durable-objects'];

/** STORES=memory,sqlite narrows the suite to those backends, for a quick run with no redis-server; unset, it runs all. */
export function selectedStores(value: string | undefined): Set<string> | undefined {
  if (!value?.trim()) return undefined;
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !STORE_TYPES.includes(name));
  if (unknown.length > 0)
    throw new Error(`STORES: no store named '${unknown.join("', '")}'; write some of ${STORE_TYPES.join(', ')}, separated by commas`);
  return new Set(names);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until check() passes, retrying; fails with the check's last error after `within` ms. */
async function eventually(check: () => Promise<void>, within = 3_000): Promise<void> {
  const deadline = Date.now() + within;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

/** Collects the messages a handler receives, and waits for a given one. */
function inbox() {
  const messages: string[] = [];
  const waiters: { want: string; done: () => void }[] = [];
  const handler = (message: string) => {
    messages.push(message);
    for (const w of waiters.filter((w) => w.want === message)) w.done();
  };
  const waitFor = (want: string) =>
    messages.includes(want) ? Promise.resolve() : new Promise<void>((done) => waiters.push({ want, done }));
  return { messages, handler, waitFor };
}

/** Runs the contract against the backends `create` makes; `name` starts with their `type` (STORES= selects by it). */
export function describeStoreContract(name: string, create: StoreFactory): void {
  const type = /^[\w-]+/.exec(name)?.[0] ?? '';
  if (!STORE_TYPES.includes(type))
    throw new Error(`describeStoreContract('${name}'): start the title with one of ${STORE_TYPES.join(', ')}`);
  const selected = selectedStores(process.env.STORES);
  describe.skipIf(selected !== undefined && !selected.has(type))(`store contract: ${name}`, () => {
    const opened: StoreBackend[] = [];
    const open = async () => {
      const store = await create();
      opened.push(store);
      expect(store.type, 'the title names the backend by its type, which STORES= selects').toBe(type);
      return store;
    };
    const unique = () => `contract:${crypto.randomUUID()}:`;
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('gets, sets, overwrites and deletes; a missing key reads as undefined', async () => {
      const store = await open();
      const k = unique();
      expect(await store.get(`${k}a`)).toBeUndefined();
      await store.set(`${k}a`, 'one');
      expect(await store.get(`${k}a`)).toBe('one');
      await store.set(`${k}a`, 'two');
      expect(await store.get(`${k}a`)).toBe('two');
      await store.delete(`${k}a`);
      expect(await store.get(`${k}a`)).toBeUndefined();
      await store.delete(`${k}never-set`);
    });

    it('keeps any string intact: JSON, newlines, unicode, the empty string', async () => {
      const store = await open();
      const k = unique();
      for (const [i, value] of ['{"a":[1,2],"b":"x"}', 'line 1\nline 2\r\n', 'été ✓ 名前 🙂', ''].entries()) {
        await store.set(`${k}${i}`, value);
        expect(await store.get(`${k}${i}`)).toBe(value);
      }
    });

    it('expires a value after its TTL, and keeps one without a TTL', async () => {
      const store = await open();
      const k = unique();
      await store.set(`${k}short`, 'v', 40);
      await store.set(`${k}long`, 'v', 60_000);
      await store.set(`${k}forever`, 'v');
      await eventually(async () => expect(await store.get(`${k}short`)).toBeUndefined());
      expect(await store.take(`${k}short`)).toBeUndefined();
      expect(await store.get(`${k}long`)).toBe('v');
      expect(await store.get(`${k}forever`)).toBe('v');
    });

    it('treats a TTL of zero or less as already expired', async () => {
      const store = await open();
      const k = unique();
      await store.set(`${k}a`, 'old');
      await store.set(`${k}a`, 'new', 0);
      expect(await store.get(`${k}a`)).toBeUndefined();
    });

    it('setting again without a TTL makes the value permanent', async () => {
      const store = await open();
      const k = unique();
      await store.set(`${k}a`, 'v1', 40);
      await store.set(`${k}a`, 'v2');
      await sleep(80);
      expect(await store.get(`${k}a`)).toBe('v2');
    });

    it('take reads and deletes: exactly one of many concurrent callers gets the value', async () => {
      const [a, b] = [await open(), await open()];
      const k = unique();
      for (let round = 0; round < 5; round++) {
        await a.set(`${k}${round}`, `value-${round}`);
        const takers = a.distributed ? [a, b] : [a];
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => takers[i % takers.length]!.take(`${k}${round}`)));
        expect(results.filter((r) => r !== undefined)).toEqual([`value-${round}`]);
        expect(await a.get(`${k}${round}`)).toBeUndefined();
      }
      expect(await a.take(`${k}missing`)).toBeUndefined();
    });

    it('shares data between two instances exactly when it says it is distributed', async () => {
      const [a, b] = [await open(), await open()];
      const k = unique();
      await a.set(`${k}shared`, 'from a');
      expect(await b.get(`${k}shared`)).toBe(a.distributed ? 'from a' : undefined);
    });

    it('delivers a message to every subscriber of the channel, and only of that channel', async () => {
      const store = await open();
      const k = unique();
      const [one, two, other] = [inbox(), inbox(), inbox()];
      await store.subscribe(`${k}ch`, one.handler);
      await store.subscribe(`${k}ch`, two.handler);
      await store.subscribe(`${k}other`, other.handler);
      await store.publish(`${k}ch`, 'hello\nworld');
      await Promise.all([one.waitFor('hello\nworld'), two.waitFor('hello\nworld')]);
      await store.publish(`${k}other`, 'sentinel');
      await other.waitFor('sentinel');
      expect(one.messages).toEqual(['hello\nworld']);
      expect(other.messages).toEqual(['sentinel']);
    });

    it('publishes across two instances exactly when supportsPubSub says so', async () => {
      const [a, b] = [await open(), await open()];
      const k = unique();
      const got = inbox();
      await b.subscribe(`${k}ch`, got.handler); // resolves once live: a message published right after must arrive
      await a.publish(`${k}ch`, 'from a');
      if (b.supportsPubSub) {
        await got.waitFor('from a');
      } else {
        await b.publish(`${k}ch`, 'sentinel from b'); // b's own message arrives; a's never does
        await got.waitFor('sentinel from b');
        await sleep(50);
      }
      expect(got.messages).toEqual(b.supportsPubSub ? ['from a'] : ['sentinel from b']);
    });

    it('publish answers whether anybody heard the message: 0 with no subscriber, more with one, 0 again after it left', async () => {
      const [a, b] = [await open(), await open()];
      const k = unique();
      expect(await a.publish(`${k}ch`, 'nobody')).toBe(0);
      const got = inbox();
      const off = await b.subscribe(`${k}ch`, got.handler);
      // Another instance's subscriber is heard exactly when publish/subscribe reaches other processes.
      const heard = await a.publish(`${k}ch`, 'across');
      if (b.supportsPubSub) expect(heard).toBeGreaterThan(0);
      else expect(heard).toBe(0);
      expect(await b.publish(`${k}ch`, 'own')).toBeGreaterThan(0);
      await got.waitFor('own');
      await off();
      await eventually(async () => expect(await b.publish(`${k}ch`, 'gone')).toBe(0));
    });

    it('stops delivering to a handler once it unsubscribed, and keeps the others', async () => {
      const store = await open();
      const k = unique();
      const [gone, kept, last] = [inbox(), inbox(), inbox()];
      const offGone = await store.subscribe(`${k}ch`, gone.handler);
      await store.subscribe(`${k}ch`, kept.handler);
      await store.publish(`${k}ch`, 'm1');
      await Promise.all([gone.waitFor('m1'), kept.waitFor('m1')]);
      await offGone();
      await offGone(); // twice is harmless
      await store.publish(`${k}ch`, 'm2');
      await kept.waitFor('m2');
      expect(gone.messages).toEqual(['m1']);

      const offLast = await store.subscribe(`${k}solo`, last.handler);
      await offLast();
      await store.publish(`${k}solo`, 'nobody listens');
      await store.publish(`${k}ch`, 'm3');
      await kept.waitFor('m3');
      expect(last.messages).toEqual([]);
    });

    it('subscribing the same function twice gives two subscriptions, each undone on its own', async () => {
      const store = await open();
      const k = unique();
      const got = inbox();
      const first = await store.subscribe(`${k}ch`, got.handler);
      await store.subscribe(`${k}ch`, got.handler);
      await store.publish(`${k}ch`, 'a');
      await eventually(async () => expect(got.messages).toEqual(['a', 'a']));
      await first();
      await store.publish(`${k}ch`, 'b');
      await got.waitFor('b');
      await store.publish(`${k}ch`, 'c');
      await got.waitFor('c');
      expect(got.messages).toEqual(['a', 'a', 'b', 'c']);
    });

    it('closes once or twice without error, and closing one instance leaves shared data to the others', async () => {
      const [a, b] = [await open(), await open()];
      const k = unique();
      await a.set(`${k}kept`, 'v');
      await a.close();
      await a.close();
      if (a.distributed) expect(await b.get(`${k}kept`)).toBe('v');
      await b.set(`${k}other`, 'w');
      expect(await b.get(`${k}other`)).toBe('w');
    });
  });
}
