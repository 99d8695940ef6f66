// Issue #47 item 3: a stream's events kept in the store are bounded (KEPT_EVENTS, KEPT_BYTES), sealed to their stream
// and position, and a reader resuming from before the kept ones gets what is kept, as the in-memory stream gives it.
import { describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../../src/stores';
import { fetchResponder } from '../../src/protocol';
import { createLogger } from '../../src/runtime';
import { KEPT_BYTES, KEPT_EVENTS, StoredEvents, openEvent, type StreamPlace } from '../../src/http/legacy/stored-events';
import { StoredStream } from '../../src/http/legacy/stored-stream';
import { sseReader } from '../helpers/legacy';

const logger = createLogger({ level: 'error' });

function placeIn(backend: MemoryStore, owner: string, secret?: string): StreamPlace {
  const base = `mcp:events:${owner}`;
  return { backend, channel: base, head: `${base}:h`, event: (seq) => `${base}:${seq}`, owner, secret, ttl: () => 60_000 };
}

/** Which event numbers the store holds, and its head. */
async function kept(place: StreamPlace, upTo: number): Promise<{ seqs: number[]; head?: string }> {
  const seqs: number[] = [];
  for (let seq = 1; seq <= upTo; seq++) if ((await place.backend.get(place.event(seq))) !== undefined) seqs.push(seq);
  return { seqs, head: await place.backend.get(place.head) };
}

describe('a stream’s events in the store', () => {
  it(`keeps the last ${KEPT_EVENTS} events, and the head names the oldest kept`, async () => {
    const place = placeIn(new MemoryStore(), 'count');
    const stored = new StoredEvents(Promise.resolve(place), logger);
    for (let seq = 1; seq <= KEPT_EVENTS + 44; seq++) stored.put(seq, JSON.stringify({ n: seq }));
    await vi.waitFor(async () => expect(await place.backend.get(place.event(KEPT_EVENTS + 44))).toBeDefined());
    await vi.waitFor(async () =>
      expect(await kept(place, KEPT_EVENTS + 44)).toEqual({
        seqs: Array.from({ length: KEPT_EVENTS }, (_, i) => 45 + i),
        head: '45',
      }),
    );
  });

  it(`keeps at most ${KEPT_BYTES} bytes of data, and always the newest event`, async () => {
    const place = placeIn(new MemoryStore(), 'bytes');
    const stored = new StoredEvents(Promise.resolve(place), logger);
    const big = 'x'.repeat(400_000);
    for (let seq = 1; seq <= 5; seq++) stored.put(seq, JSON.stringify(big));
    stored.put(6, JSON.stringify('y'.repeat(KEPT_BYTES + 10)));
    await vi.waitFor(async () => expect(await kept(place, 6)).toEqual({ seqs: [6], head: '6' }));
  });

  it('a reader resuming from before the kept events gets what is kept, then the end closes its connection', async () => {
    const place = placeIn(new MemoryStore(), 'reader', 'a secret');
    const stored = new StoredEvents(Promise.resolve(place), logger);
    for (let seq = 1; seq <= KEPT_EVENTS + 10; seq++) stored.put(seq, JSON.stringify({ n: seq }));
    stored.end(KEPT_EVENTS + 10);
    await vi.waitFor(async () => expect(await place.backend.get(place.event(KEPT_EVENTS + 11))).toBeDefined());
    let settled = false;
    const stream = new StoredStream('reader', place, { onSettled: () => (settled = true), onActivity: () => {} });
    const events = sseReader(stream.connect(fetchResponder, 3));
    const seen: number[] = [];
    for (let event = await events.next(); event; event = await events.next()) seen.push(event.data.n);
    expect(seen).toEqual(Array.from({ length: KEPT_EVENTS }, (_, i) => 11 + i));
    expect(settled).toBe(true);
  });

  it('a reader whose subscription the store refuses still gets every event, by polling, and the end', async () => {
    // The store answers reads and writes but refuses the subscription, as Redis over HTTP did for a moment under load.
    class NoSubscriptions extends MemoryStore {
      override subscribe(): Promise<() => Promise<void>> {
        return Promise.reject(new Error('the subscription could not be opened'));
      }
    }
    const place = placeIn(new NoSubscriptions(), 'polled', 'a secret');
    const stored = new StoredEvents(Promise.resolve(place), logger);
    stored.put(1, JSON.stringify({ n: 1 }));
    await vi.waitFor(async () => expect(await place.backend.get(place.event(1))).toBeDefined());
    let settled = false;
    const stream = new StoredStream('polled', place, { onSettled: () => (settled = true), onActivity: () => {} });
    const events = sseReader(stream.connect(fetchResponder, 0));
    expect((await events.next())?.data).toEqual({ n: 1 });
    // Written after the reader found nothing more: no announcement reaches it, its poll does.
    stored.put(2, JSON.stringify({ n: 2 }));
    stored.end(2);
    expect((await events.next())?.data).toEqual({ n: 2 });
    expect(await events.next()).toBeUndefined();
    expect(settled).toBe(true);
  });

  it('a sealed event opens only in its own stream, at its own position, under its secret', async () => {
    const backend = new MemoryStore();
    const place = placeIn(backend, 'mine', 'a secret');
    new StoredEvents(Promise.resolve(place), logger).put(1, JSON.stringify({ secret: 'the data' }));
    await vi.waitFor(async () => expect(await backend.get(place.event(1))).toBeDefined());
    const text = (await backend.get(place.event(1)))!;
    expect(text).not.toContain('the data');
    expect(await openEvent(place, text, 1)).toEqual({ seq: 1, data: JSON.stringify({ secret: 'the data' }) });
    expect(await openEvent(place, text, 2)).toBeUndefined();
    expect(await openEvent(placeIn(backend, 'another stream', 'a secret'), text, 1)).toBeUndefined();
    expect(await openEvent(placeIn(backend, 'mine', 'another secret'), text, 1)).toBeUndefined();
    expect(await openEvent(place, '{"__proto__":{"seq":1,"data":"x"}}', 1)).toBeUndefined();
    expect(await openEvent(place, 'not json', 1)).toBeUndefined();
  });
});
