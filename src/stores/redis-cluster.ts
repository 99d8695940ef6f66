// Redis Cluster (ioredis's Cluster): every key on its slot's master, and sharded publish/subscribe (SPUBLISH,
// SSUBSCRIBE), so a channel lives on one shard and publish's count is the count of that shard's subscribers.
import { Cluster, type ClusterNode, type ClusterOptions } from 'ioredis';
import { createRedactor, secretsIn } from '../runtime';
import type { RedisClusterOptions } from './options';
import { CLOSE_WAIT_MS, quitWithin } from './quit';
import { asError, type ChannelCommands, RedisChannels, RedisKeys, RestoredListeners } from './redis-shared';
import type { MessageHandler, StoreBackend } from './types';

/**
 * How often an idle instance asks the cluster for its slots, so its subscriptions follow a failover to the new master
 * (a subscriber connection sends nothing that a MOVED could answer). One CLUSTER SLOTS a second per instance.
 */
const SLOTS_REFRESH_MS = 1_000;

export class RedisClusterStore extends RedisKeys implements StoreBackend {
  readonly type = 'redis-cluster';
  readonly supportsPubSub = true;
  readonly distributed = true;
  // #private: the client carries its options, password included.
  readonly #client: Cluster;
  readonly #channels: RedisChannels;
  readonly #restored: RestoredListeners;
  #closed?: Promise<void>;
  readonly #closeWaitMs: number;
  // ioredis's sharded commands, as the channels tell Redis of theirs.
  readonly #commands: ChannelCommands;

  /** `closeWaitMs`: how long close() waits for QUIT before it drops the connections. */
  constructor(client: Cluster, onError: (error: Error) => void, closeWaitMs = CLOSE_WAIT_MS) {
    super(client);
    this.#client = client;
    this.#channels = new RedisChannels(onError);
    this.#restored = new RestoredListeners(onError);
    this.#closeWaitMs = closeWaitMs;
    this.#commands = { subscribe: (channel) => client.ssubscribe(channel), unsubscribe: (channel) => client.sunsubscribe(channel) };
    // Connected already: a later `ready` follows a reconnection, `subscribersReady` a new topology (a failover); a
    // replica that took over may lack the newest writes, so both count as "the store may have lost data".
    client.on('ready', () => this.#restored.tell());
    // ioredis subscribes again without waiting for the replies: tell once each channel is live on its new master, so
    // what a listener reads then (an answer kept while the subscription moved) is not older than what it will hear.
    client.on('subscribersReady', () => {
      void Promise.all(this.#channels.names().map((channel) => client.ssubscribe(channel)))
        .catch((error: unknown) => onError(asError(error)))
        .finally(() => this.#restored.tell());
    });
    client.on('smessage', (channel: string, message: string) => this.#channels.deliver(channel, message));
  }

  /**
   * SPUBLISH goes to the channel's master, whose reply counts the subscribers connected to it: every subscriber, since
   * they subscribe on the master. Fast path: a count above 0 is the answer. At 0, a subscriber may still sit on a node
   * that was the master until a failover (it is a replica now, and may still hear the shard's messages until this side
   * of it moves over): those nodes are asked too (PUBSUB SHARDNUMSUB). While a failover settles the count is a guess
   * either way; the pending questions keep each answer for a subscriber that missed it.
   */
  async publish(channel: string, message: string): Promise<number> {
    const heard = Number(await this.#client.spublish(channel, message));
    if (heard > 0) return heard;
    const counts = await Promise.all(
      this.#client.nodes('all').map(async (node) => {
        const reply = (await node.call('PUBSUB', 'SHARDNUMSUB', channel).catch(() => [])) as unknown[];
        return Number(reply[1] ?? 0);
      }),
    );
    return counts.reduce((sum, n) => sum + n, 0);
  }

  onRestored(listener: () => void): () => void {
    return this.#restored.add(listener);
  }

  /** SSUBSCRIBE once per channel, on the connection ioredis keeps to the channel's master; resolves once live. */
  async subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>> {
    if (this.#closed) throw new Error('The Redis Cluster store is closed');
    return this.#channels.add(channel, onMessage, this.#commands, () => this.#closed !== undefined);
  }

  close(): Promise<void> {
    this.#channels.clear();
    return (this.#closed ??= quitWithin(this.#client, this.#closeWaitMs));
  }
}

/** ioredis's Cluster options for ours: sharded subscribers, slots followed every second, no ioredis keyPrefix. */
function ioRedisClusterOptions(options: RedisClusterOptions): { nodes: ClusterNode[]; options: ClusterOptions } {
  const tls = options.tls === true ? {} : options.tls === false ? undefined : options.tls;
  const { username, password } = options;
  return {
    nodes: options.cluster.map(({ host, port }) => ({ host, port })),
    options: {
      lazyConnect: true,
      shardedSubscribers: true,
      slotsRefreshInterval: SLOTS_REFRESH_MS,
      // Connecting gives up after a few rounds over the seeds instead of retrying forever.
      clusterRetryStrategy: (times) => (times > 3 ? null : Math.min(100 * times, 1_000)),
      redisOptions: { username, password, maxRetriesPerRequest: 3, connectTimeout: 5_000, ...(tls ? { tls } : {}) },
    },
  };
}

/**
 * Connects to a Redis Cluster through any of its nodes and resolves once the slots are known; fails with a clear error when it can't.
 * @example const store = await createRedisClusterStore({ provider: 'redis', cluster: [{ host: '10.0.0.1', port: 7000 }] });
 */
export async function createRedisClusterStore(
  options: RedisClusterOptions,
  extra: { onError?: (error: Error) => void; timeoutMs?: number } = {},
): Promise<RedisClusterStore> {
  const onError = extra.onError ?? (() => undefined);
  const resolved = ioRedisClusterOptions(options);
  const client = new Cluster(resolved.nodes, resolved.options);
  client.on('error', onError);
  client.on('nodeError', onError);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const where = options.cluster.map(({ host, port }) => `${host}:${port}`).join(', ');
    const redact = createRedactor(secretsIn(options));
    throw new Error(
      redact.text(`Could not connect to the Redis Cluster at ${where}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
  // Once connected, keep retrying for ever (as a single Redis does) rather than ending the store.
  client.options.clusterRetryStrategy = (times) => Math.min(100 + times * 50, 2_000);
  return new RedisClusterStore(client, onError, extra.timeoutMs);
}
