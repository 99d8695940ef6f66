// The Durable Objects store inside workerd (miniflare), with real Durable Objects: the store contract with each store
// instance in one of two isolates of a Worker and the objects in a third, then what the contract can't say: take
// raced from both isolates, TTL removed by the alarm, storage that outlives the workerd process, hostile keys and values.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker } from '../helpers/bundle';
import { remoteStore, startDurableWorkers, type DurableWorkers, type Isolate } from '../helpers/durable-objects';
import { describeStoreContract } from '../stores/contract';

const CLASSES = {
  PARLEY_STORE: { className: 'InspectedStore' },
  HELD_STORE: { className: 'HeldStore' },
  KV_STORE: { className: 'KvBackedStore', kv: true },
};

let code: string;
let nodeImports: string[];
let workers: DurableWorkers;
const persist = mkdtempSync(join(tmpdir(), 'parley-do-'));
beforeAll(async () => {
  ({ code, nodeImports } = await bundleWorker('test/edge/entries/durable-store-worker.ts'));
  workers = startDurableWorkers({ code, classes: CLASSES, persist });
  await workers.mf.ready;
});
afterAll(async () => {
  await workers?.dispose();
  rmSync(persist, { recursive: true, force: true });
});

// Each store the contract opens runs in the next isolate: a, b, a, …; two stores are always two isolates.
let opened = 0;
describeStoreContract('durable-objects (two isolates of a Worker in workerd)', async () =>
  remoteStore(workers, opened++ % 2 === 0 ? 'a' : 'b'),
);

const call = async (to: Isolate, path: string, body?: string, ns = 'PARLEY_STORE') => {
  const response = await workers.send(to, `${path}${path.includes('?') ? '&' : '?'}ns=${ns}`, { method: 'POST', body });
  return { status: response.status, text: await response.text() };
};
const q = (value: string) => encodeURIComponent(value);

describe('the Durable Objects store in workerd', () => {
  it('bundles with no node: import, and a and b are two isolates', async () => {
    expect(nodeImports).toEqual([]);
    const [a, b] = [await call('a', '/isolate'), await call('b', '/isolate')];
    expect(a.text).not.toBe(b.text);
  });

  it('gives a value to exactly one of 40 takes raced from two isolates, round after round', async () => {
    for (let round = 0; round < 5; round++) {
      const key = `race:${crypto.randomUUID()}`;
      await call('a', `/set?key=${key}`, `prize ${round}`);
      const takes = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 ? 'a' : 'b', `/take?key=${key}`)));
      expect(takes.filter((t) => t.status === 200).map((t) => t.text)).toEqual([`prize ${round}`]);
      expect(takes.filter((t) => t.status === 204)).toHaveLength(39);
    }
  });

  it('publishes from one isolate to subscribers in the other, counting them', async () => {
    const channel = `ch:${crypto.randomUUID()}`;
    const [inA, inB] = [remoteStore(workers, 'a'), remoteStore(workers, 'b')];
    const heard: string[] = [];
    const stops = [await inB.subscribe(channel, (m) => heard.push(`b ${m}`)), await inA.subscribe(channel, (m) => heard.push(`a ${m}`))];
    expect(await inA.publish(channel, 'one\ntwo')).toBe(2);
    await expect.poll(() => heard.sort()).toEqual(['a one\ntwo', 'b one\ntwo']);
    await stops[0]!();
    await expect.poll(() => inA.publish(channel, 'again')).toBe(1);
    await stops[1]!();
    await expect.poll(() => inB.publish(channel, 'nobody')).toBe(0);
  });

  it('opens a subscription again after its channel object dropped the socket, and the next message arrives', async () => {
    const channel = `dropped:${crypto.randomUUID()}`;
    const heard: string[] = [];
    const stop = await remoteStore(workers, 'b').subscribe(channel, (m) => heard.push(m));
    expect((await call('a', `/drop?channel=${channel}`)).text).toBe('1');
    // What is published while the socket is away is lost: publish until the new socket hears one.
    await expect
      .poll(async () => (await call('a', `/publish?channel=${channel}`, 'after the drop'), heard.length), { interval: 50 })
      .toBeGreaterThan(0);
    expect(heard[0]).toBe('after the drop');
    await stop();
  });

  it('removes an expired value with its alarm: nothing is left in the object, no alarm either', async () => {
    const key = `ttl:${crypto.randomUUID()}`;
    await call('a', `/set?key=${key}&ttl=300`, 'short');
    expect(JSON.parse((await call('b', `/left?key=${key}`)).text)).toMatchObject({ tables: ['entry'], alarm: expect.any(Number) });
    await expect
      .poll(async () => JSON.parse((await call('b', `/left?key=${key}`)).text), { timeout: 5_000 })
      .toEqual({ tables: [], alarm: null });
    expect((await call('a', `/get?key=${key}`)).status).toBe(204);
  });

  it('never reads an expired value, even where no alarm removed it', async () => {
    const key = `held:${crypto.randomUUID()}`;
    await call('a', `/set?key=${key}&ttl=100`, 'stale', 'HELD_STORE');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(JSON.parse((await call('b', `/left?key=${key}`, undefined, 'HELD_STORE')).text).tables).toEqual(['entry']); // still stored
    expect((await call('b', `/get?key=${key}`, undefined, 'HELD_STORE')).status).toBe(204);
    expect((await call('a', `/take?key=${key}`, undefined, 'HELD_STORE')).status).toBe(204);
  });

  it('leaves nothing in an object whose value was taken or deleted', async () => {
    const [taken, deleted] = [`gone:${crypto.randomUUID()}`, `gone:${crypto.randomUUID()}`];
    await call('a', `/set?key=${taken}&ttl=60000`, 'v');
    await call('a', `/set?key=${deleted}`, 'v');
    await call('b', `/take?key=${taken}`);
    await call('b', `/delete?key=${deleted}`);
    for (const key of [taken, deleted]) expect(JSON.parse((await call('a', `/left?key=${key}`)).text)).toEqual({ tables: [], alarm: null });
  });

  it('keeps keys that name prototype members, and very long keys, each apart', async () => {
    // The last two are 'long:' and 'long:' with 1 MB more (the worker pads keys: no URL takes that).
    const hostile = [
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'k:__proto__',
      'c:x',
      'long:',
      'long:&pad=1000000',
    ];
    const path = (key: string) => `?key=${key.includes('&') ? key : q(key)}`;
    for (const [i, key] of hostile.entries()) await call(i % 2 ? 'a' : 'b', `/set${path(key)}`, `value ${i}`);
    for (const [i, key] of hostile.entries()) expect((await call(i % 2 ? 'b' : 'a', `/get${path(key)}`)).text).toBe(`value ${i}`);
    expect((await call('a', '/get?key=__proto__x')).status).toBe(204);
    expect((await call('a', '/publish?channel=__proto__', 'nobody')).text).toBe('0');
    for (const key of hostile) await call('a', `/delete${path(key)}`);
    expect((await call('b', `/get${path('constructor')}`)).status).toBe(204);
  });

  it('refuses a value over 2 MB with an error that says so, and the object serves on', async () => {
    const key = `big:${crypto.randomUUID()}`;
    const refused = await call('a', `/set?key=${key}`, 'é'.repeat(1_000_001)); // 2,000,002 bytes of UTF-8
    expect(refused).toEqual({
      status: 500,
      text: "InvalidInputError: Durable Objects store: a value of 2000002 bytes can't be kept; a Durable Object keeps at most 2000000 bytes under one key",
    });
    const largest = 'x'.repeat(2_000_000);
    expect((await call('b', `/set?key=${key}`, largest)).status).toBe(200);
    expect((await call('a', `/get?key=${key}`)).text).toHaveLength(2_000_000);
    await call('a', `/delete?key=${key}`);
  });

  it('says a class declared without SQLite (new_classes) needs new_sqlite_classes', async () => {
    const refused = await call('a', `/set?key=kv:${crypto.randomUUID()}`, 'v', 'KV_STORE');
    expect(refused.status).toBe(500);
    expect(refused.text).toContain('DurableObjectsStoreError: Durable Objects store: set failed');
    expect(refused.text).toContain('new_sqlite_classes');
  });
});

describe('Durable Objects storage across a restart of workerd', () => {
  it('keeps values, with their TTL, in the persistence folder for the next workerd process', { timeout: 30_000 }, async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-do-restart-'));
    try {
      const first = startDurableWorkers({ code, classes: CLASSES, persist: folder });
      await first.send('a', '/set?key=kept&ns=PARLEY_STORE', { method: 'POST', body: 'outlives the process' });
      await first.send('a', '/set?key=expiring&ttl=60000&ns=PARLEY_STORE', { method: 'POST', body: 'for a minute' });
      await first.dispose();
      const second = startDurableWorkers({ code, classes: CLASSES, persist: folder });
      try {
        expect(await (await second.send('b', '/get?key=kept&ns=PARLEY_STORE', { method: 'POST' })).text()).toBe('outlives the process');
        expect(await (await second.send('b', '/take?key=expiring&ns=PARLEY_STORE', { method: 'POST' })).text()).toBe('for a minute');
        expect((await second.send('a', '/get?key=expiring&ns=PARLEY_STORE', { method: 'POST' })).status).toBe(204);
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
