// The Durable Objects store, on the Worker's side: each operation goes to the object of its key, publish and subscribe
// to the object of their channel. What the objects do is durable-object.ts (ParleyStore).
//
// The partition is one object per key and one per channel, never one for everything. Parley's keys are already opaque
// (HMACs or SHA-256 digests, stores/questions/keys.ts; random session ids) and the contract has no operation over several
// keys, so nothing gains from grouping them: per key, every take is atomic inside one single-threaded object, every TTL is that object's
// one alarm, and the load spreads over as many objects as there are keys, which Cloudflare does not bound.
import { InvalidInputError } from '../protocol';
import { OBJECT_ORIGIN, TTL_HEADER } from './durable-object';
import { provideDurableObjects, type DurableObjectNamespaceLike } from './provided';
import { openSocket, type WorkerSocket } from './durable-objects-socket';
import type { MessageHandler, StoreBackend, StoreSortedSets } from './types';

/** A store failure: the operation and what the platform said, never the value. */
class DurableObjectsStoreError extends Error {
  override name = 'DurableObjectsStoreError';
}

/**
 * The largest value kept, in UTF-8 bytes: a SQLite-backed object's string or row is at most 2 MB
 * (developers.cloudflare.com/durable-objects/platform/limits/). A larger one is refused before it is sent.
 */
const MAX_VALUE_BYTES = 2_000_000;

class DurableObjectsStore implements StoreBackend {
  readonly type = 'durable-objects';
  readonly supportsPubSub = true;
  readonly distributed = true;
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #open = new Set<() => Promise<void>>();
  readonly #restored = new Set<() => void>();

  constructor(namespace: DurableObjectNamespaceLike) {
    this.#namespace = namespace;
  }

  async get(key: string): Promise<string | undefined> {
    return readOf(await this.#call('get', `k:${key}`));
  }

  async set(key: string, value: string, ttlMs?: number): Promise<void> {
    checkSize(value);
    const headers = ttlMs === undefined ? undefined : { [TTL_HEADER]: String(ttlMs) };
    await this.#call('set', `k:${key}`, { method: 'POST', body: value, headers });
  }

  async delete(key: string): Promise<void> {
    await this.#call('delete', `k:${key}`, { method: 'POST' });
  }

  async take(key: string): Promise<string | undefined> {
    return readOf(await this.#call('take', `k:${key}`, { method: 'POST' }));
  }

  /**
   * A sorted set is its key's object's value: each operation runs there alone, so none is lost. Its alarm wakes the
   * Worker at `wake` when a member comes due, where the Worker binds itself as PARLEY_SELF (durable-object-wake.ts).
   */
  readonly sortedSets: StoreSortedSets = {
    add: async (key, member, score, { ttlMs, max, wake }) => {
      checkSize(member);
      const body = JSON.stringify([member, score, Math.ceil(ttlMs), max, ...(wake === undefined ? [] : [wake])]);
      await this.#call('zadd', `k:${key}`, { method: 'POST', body });
    },
    upTo: async (key, maxScore, limit) =>
      (await this.#call('zrange', `k:${key}`, { method: 'POST', body: JSON.stringify([maxScore, limit]) })).json(),
    remove: async (key, member) => void (await this.#call('zrem', `k:${key}`, { method: 'POST', body: member })),
  };

  /** The channel's object sends the message on each subscriber's socket, and answers how many took it. */
  async publish(channel: string, message: string): Promise<number> {
    const response = await this.#call('publish', `c:${channel}`, { method: 'POST', body: message });
    return Number(await response.text());
  }

  /**
   * A WebSocket of its own to the channel's object, opened in the caller's request (workerd ties a socket to the
   * request that opened it, so subscriptions are not shared between requests). Live once resolved: the object accepted
   * the socket before it answered. A socket that drops is opened again, with backoff, and onRestored's listeners told.
   */
  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    const connect = async () => {
      const response = await this.#call('subscribe', `c:${channel}`, { headers: { upgrade: 'websocket' } });
      const socket = (response as Response & { webSocket?: WorkerSocket | null }).webSocket;
      if (!socket) throw new DurableObjectsStoreError('Durable Objects store: subscribe got no WebSocket from the channel object');
      return socket;
    };
    const end = await openSocket({
      connect,
      onMessage: (message) => queueMicrotask(() => onMessage(message)),
      onReopen: () => {
        for (const listener of this.#restored) queueMicrotask(listener);
      },
    });
    const stop = async () => {
      this.#open.delete(stop);
      end();
    };
    this.#open.add(stop);
    return stop;
  }

  /** Called when a subscription's socket is open again after a drop: what was published meanwhile did not arrive. */
  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => void this.#restored.delete(listener);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#open].map((stop) => stop()));
  }

  /** One request to the named object; a stub per call, since workerd ties I/O objects to the request that made them. */
  async #call(operation: string, name: string, init?: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.#namespace.get(this.#namespace.idFromName(name)).fetch(`${OBJECT_ORIGIN}/${operation}`, init);
    } catch (error) {
      throw new DurableObjectsStoreError(
        `Durable Objects store: ${operation} failed (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    if (response.status >= 400) {
      const text = await response.text().catch(() => '');
      throw new DurableObjectsStoreError(
        `Durable Objects store: ${operation} failed (HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ''})`,
      );
    }
    return response;
  }
}

/**
 * Refuses a value a Durable Object would not keep, before it is sent (the store keeps what it had): an error the caller
 * reads (INVALID_INPUT), since trying again would not help.
 */
function checkSize(value: string): void {
  // Fast path: a string of n UTF-16 units is at most 3n UTF-8 bytes, so most values need no encoding to be checked.
  const bytes = value.length * 3 <= MAX_VALUE_BYTES ? 0 : new TextEncoder().encode(value).byteLength;
  if (bytes > MAX_VALUE_BYTES)
    throw new InvalidInputError(
      `Durable Objects store: a value of ${bytes} bytes can't be kept; a Durable Object keeps at most ${MAX_VALUE_BYTES} bytes under one key`,
    );
}

const readOf = async (response: Response): Promise<string | undefined> => (response.status === 204 ? undefined : response.text());

/** A store over a Durable Object namespace bound to ParleyStore. */
export const durableObjectsStore = (namespace: DurableObjectNamespaceLike): StoreBackend => new DurableObjectsStore(namespace);

/** The binding enableDurableObjects() reads when none is named. */
const DEFAULT_BINDING = 'PARLEY_STORE';

export interface DurableObjectsOptions {
  /** The name of the Durable Object binding in wrangler.toml (env.<binding>). Default PARLEY_STORE. */
  binding?: string;
  /** Prefixed to every key and channel; default `mcp:`. */
  keyPrefix?: string;
}

/**
 * Keeps the Worker's store (older clients' sessions and questions, tasks) in Durable Objects: the env binding named
 * `binding` (default PARLEY_STORE) to the ParleyStore class, which the entry exports. Without the call the Worker's
 * bundle has none of this code.
 * @example import { createWorker, enableDurableObjects } from 'parley-mcp/cloudflare'; export { ParleyStore } from 'parley-mcp/cloudflare'; enableDurableObjects(); export default createWorker(config);
 */
export function enableDurableObjects(options: DurableObjectsOptions = {}): void {
  const binding = options.binding ?? DEFAULT_BINDING;
  provideDurableObjects({
    keyPrefix: options.keyPrefix,
    open: (env) => {
      const namespace = env !== undefined && Object.hasOwn(env, binding) ? env[binding] : undefined;
      if (!isNamespace(namespace)) throw new DurableObjectsStoreError(missingBinding(binding, namespace));
      return durableObjectsStore(namespace);
    },
  });
}

const isNamespace = (value: unknown): value is DurableObjectNamespaceLike =>
  typeof value === 'object' && value !== null && typeof (value as { idFromName?: unknown }).idFromName === 'function';

/** The startup error of a Worker whose entry asked for Durable Objects that wrangler.toml did not bind. */
const missingBinding = (binding: string, found: unknown) =>
  `enableDurableObjects() keeps the store in Durable Objects, but the Worker's env has no Durable Object binding named ${binding}${found === undefined ? '' : ` (it has a ${typeof found} under that name)`}: add [[durable_objects.bindings]] name = "${binding}" class_name = "ParleyStore" and [[migrations]] new_sqlite_classes = ["ParleyStore"] to wrangler.toml, and export { ParleyStore } from 'parley-mcp/cloudflare' in the Worker's entry (Parley's docs/deployment.md, Cloudflare Workers)`;
