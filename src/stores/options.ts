// The store options a server's config names (`redis`, `sqlite`, `elicitation.redis`), checked with zod. No driver here.
import * as z from 'zod';

const redisUrl = z.string().regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL');

/** Redis over TCP: `{ provider: 'redis', host, port }`, or a URL. `keyPrefix` defaults to `mcp:`. */
const redisTcpOptionsSchema = z.strictObject({
  provider: z.literal('redis').optional(),
  url: redisUrl.optional(),
  host: z.string().min(1).optional(),
  port: z.number().int().min(1).max(65535).optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  db: z.number().int().min(0).optional(),
  tls: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
  keyPrefix: z.string().optional(),
});

/**
 * A Redis Cluster: `{ provider: 'redis', cluster: [{ host, port }, …] }`, any of its nodes (ioredis finds the rest).
 * No `url`, `host`, `port` or `db`: a cluster has only database 0, and the nodes say where everything is.
 */
const redisClusterOptionsSchema = z.strictObject({
  provider: z.literal('redis').optional(),
  cluster: z
    .array(z.strictObject({ host: z.string().min(1), port: z.number().int().min(1).max(65535) }))
    .min(1, 'name at least one node of the cluster'),
  username: z.string().optional(),
  password: z.string().optional(),
  tls: z.union([z.boolean(), z.record(z.string(), z.unknown())]).optional(),
  keyPrefix: z.string().optional(),
});

/** Vercel KV: accepted as a server store, refused for elicitation (it has no publish/subscribe). */
const vercelKvOptionsSchema = z.strictObject({
  provider: z.literal('vercel-kv'),
  url: z.string().optional(),
  token: z.string().optional(),
  keyPrefix: z.string().optional(),
});

/** Redis over HTTP (the Upstash REST API): `url` and `token`, else UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN. */
const redisHttpOptionsSchema = z.strictObject({
  provider: z.literal('upstash'),
  url: z.url({ protocol: /^https?$/ }).optional(),
  token: z.string().min(1).optional(),
  keyPrefix: z.string().optional(),
});

export const redisOptionsSchema = z.union([
  redisUrl,
  redisTcpOptionsSchema,
  redisClusterOptionsSchema,
  vercelKvOptionsSchema,
  redisHttpOptionsSchema,
]);

export const sqliteOptionsSchema = z.strictObject({ path: z.string().min(1) });

export type RedisTcpOptions = z.output<typeof redisTcpOptionsSchema>;
export type RedisClusterOptions = z.output<typeof redisClusterOptionsSchema>;
export type RedisHttpOptions = z.output<typeof redisHttpOptionsSchema>;
export type RedisOptions = z.output<typeof redisOptionsSchema>;
export type SqliteOptions = z.output<typeof sqliteOptionsSchema>;
