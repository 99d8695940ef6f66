// The stores subsystem's door: the contract, the backends that need no driver, and the factory.
export type { MessageHandler, StoreBackend } from './types';
export { MemoryStore, memoryStore } from './memory';
export { createElicitationStore, encryptionSecret } from './factory';
export type { ElicitationStore, ElicitationStoreInfo } from './factory';
export { redisOptionsSchema, sqliteOptionsSchema } from './options';
export type { RedisOptions, RedisTcpOptions, SqliteOptions } from './options';
