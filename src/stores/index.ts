// The stores subsystem's door: the contract, the backends that need no driver, the store choice and the factory.
export type { MessageHandler, StoreBackend } from './types';
export { MemoryStore, memoryStore } from './memory';
export { createElicitationStore, EDGE_NEEDS_DISTRIBUTED, encryptionSecret } from './factory';
export type { ElicitationStore, ElicitationStoreInfo } from './factory';
export { chooseElicitationStore, DEFAULT_KEY_PREFIX, redisChoice, redisFromEnv, sqliteChoice, VERCEL_KV_REFUSED } from './choose';
export type { StoreChoice, StoreSource } from './choose';
export { redisOptionsSchema, sqliteOptionsSchema } from './options';
export type { RedisClusterOptions, RedisHttpOptions, RedisOptions, RedisTcpOptions, SqliteOptions } from './options';
