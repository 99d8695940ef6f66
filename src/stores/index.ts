// The stores subsystem's door: the contract, the backends that need no driver, and their options.
export type { ElicitationStore, StoreBackend, StoreSortedSets, StoreSource } from './types';
export { MemoryStore, memoryStore } from './memory';
export { redisOptionsSchema, sqliteOptionsSchema } from './options';
export type { RedisClusterOptions, RedisHttpOptions, RedisOptions, RedisTcpOptions, SqliteOptions } from './options';
export { providedRedisHttp, type RedisHttpDriver, providedDurableObjects } from './provided';
export { boundedStore } from './bounded';
// Durable Objects: in a Worker's bundle only where its entry imports them (parley-mcp/cloudflare).
export { ParleyStore } from './durable-object';
export { enableDurableObjects, type DurableObjectsOptions } from './durable-objects';
// The one question store its three users (pending questions, tasks, the inbox) keep their questions in.
export { QuestionKeys } from './questions/keys';
export { QuestionSeal } from './questions/seal';
export { QuestionRecords, type LegacyRecords } from './questions/records';
export {
  isThread,
  leftOf,
  newThread,
  QuestionThreads,
  type QuestionThread,
  type ThreadLayout,
} from './questions/thread';
