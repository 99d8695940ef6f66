// What an edge bundle leaves out, loaded on first use: store drivers and persistent questions. Node gets the real ones.
import type { QuestionService } from '../questions/service';
import type { PersistentOptions } from '../questions/options';
import type { EnvSource, Logger } from '../runtime';
import type { OtelApi, Telemetry } from '../runtime/telemetry';
import type { FrontMcpConfig } from '../server/config';
import type { RedisClusterOptions, RedisTcpOptions, SqliteOptions } from './options';
import type { RedisHttpStoreOptions } from './redis-http';
import type { StoreBackend } from './types';

/** Redis over HTTP (@upstash/redis): the elicitation store once its probe showed publish/subscribe works. */
export interface RedisHttpDriver {
  openRedisHttpStore(options: Partial<RedisHttpStoreOptions>, env: EnvSource, keyPrefix: string, onError?: (error: Error) => void): Promise<StoreBackend>;
}

export interface StoreDrivers {
  redis(): Promise<{ createRedisStore(options: RedisTcpOptions | RedisClusterOptions | string, extra: { onError?: (error: Error) => void }): Promise<StoreBackend> }>;
  sqlite(): Promise<{ createSqliteStore(options: SqliteOptions): Promise<StoreBackend> }>;
  redisHttp(): Promise<RedisHttpDriver>;
  /** The default file of persistent questions ($FRONTMCP_HOME/questions.sqlite) and its permission checks. */
  questionsHome(): Promise<{ defaultQuestionFile(home: string | undefined, encrypted: boolean): { path: string } | { refused: string } }>;
  /** Persistent questions once their options passed: the store, codec, people auth, delivery and inbox routes. */
  questions(): Promise<{
    buildQuestionService(config: FrontMcpConfig, options: PersistentOptions, env: EnvSource, logger: Logger): Promise<QuestionService>;
  }>;
  /** The unanswered-question policy (docs/unanswered.md): Node only, like the persistent questions it moves questions to. */
  unanswered(): Promise<typeof import('../elicitation/unanswered')>;
  /** Tracing with the given @opentelemetry/api, else the installed one (Node); undefined when there is none. */
  otel(given: OtelApi | undefined): Promise<Telemetry | undefined>;
}

let enabledRedisHttp: RedisHttpDriver | undefined;

/** Puts Redis over HTTP into a bundle that leaves it out; parley-mcp/redis-http's enableRedisHttp() calls it. */
export const provideRedisHttp = (driver: RedisHttpDriver): void => void (enabledRedisHttp = driver);
export const providedRedisHttp = (): RedisHttpDriver | undefined => enabledRedisHttp;
