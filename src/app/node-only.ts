// What an edge bundle leaves out, loaded on first use: store drivers and persistent questions. Node gets the real ones.
import type { Escalations, QuestionService, PersistentOptions } from '../inbox';
import type { UnansweredModule } from '../elicitation';
import type { EnvSource, Logger, OtelApi, Telemetry } from '../runtime';
import type { ParleyConfig, ToolEntry } from '../model';
import type { ParleyServer, TaskRuntime } from '../engine';
import type { StoreCrypto } from '../crypto';
import type { OidcOptions, PersonSignIn } from '../auth';
import type { ElicitationStore, RedisClusterOptions, RedisTcpOptions, SqliteOptions, RedisHttpDriver, StoreBackend } from '../stores';

/** Where persistent questions live on an edge runtime: the elicitation store (Durable Objects, Redis over HTTP), if any. */
export interface EdgeQuestionHome {
  store: Pick<ElicitationStore, 'backend' | 'keyPrefix'> | undefined;
}

export interface StoreDrivers {
  redis(): Promise<{
    createRedisStore(
      options: RedisTcpOptions | RedisClusterOptions | string,
      extra: { onError?: (error: Error) => void; timeoutMs?: number },
    ): Promise<StoreBackend>;
  }>;
  sqlite(): Promise<{ createSqliteStore(options: SqliteOptions, extra?: { busyTimeoutMs?: number }): Promise<StoreBackend> }>;
  redisHttp(): Promise<RedisHttpDriver>;
  /** The default file of persistent questions ($FRONTMCP_HOME/questions.sqlite) and its permission checks. */
  questionsHome(): Promise<{ defaultQuestionFile(home: string | undefined, encrypted: boolean): { path: string } | { refused: string } }>;
  /**
   * Persistent questions once their options passed: the store, codec, people auth, delivery and inbox routes. In an
   * edge bundle once its entry calls enableInbox() (parley-mcp/inbox); `edgeHome` is then the store they live in.
   */
  questions(): Promise<{
    readPersistentOptions(value: unknown): PersistentOptions | undefined;
    /** Whom tools (`to` on @Tool) and elicitation.unanswered address: refused when malformed, or without http.auth.oidc. */
    checkAddressing(config: ParleyConfig, tools: ReadonlyMap<string, ToolEntry> | undefined): void;
    buildQuestionService(
      config: ParleyConfig,
      options: PersistentOptions,
      env: EnvSource,
      logger: Logger,
      edgeHome?: EdgeQuestionHome,
    ): Promise<QuestionService>;
  }>;
  /**
   * People's OpenID Connect sign-in to the inbox (`http.auth.oidc`), loaded only where it is set; in an edge bundle once
   * its entry calls enableOidcSignIn() (parley-mcp/inbox), so an inbox whose people sign in with codes leaves it out.
   */
  signIn(): Promise<{
    createPersonSignIn(oidc: OidcOptions, issuer: string, logger: Logger): PersonSignIn;
    Escalations: typeof Escalations;
  }>;
  /** The unanswered-question policy (docs/unanswered.md): in an edge bundle once its entry calls enableInbox(), like persistent questions. */
  unanswered(): Promise<UnansweredModule>;
  /** Tasks: loaded only when a tool may run as a task; in an edge bundle once its entry calls enableTasks() (parley-mcp/tasks). */
  tasks(): Promise<{
    whereToKeepTasks(edge: boolean): string;
    createTaskRuntime(
      home: Pick<ElicitationStore, 'backend' | 'keyPrefix' | 'secret'>,
      limits: Omit<ParleyConfig['tasks'], 'maxPerCaller'> & { maxPerOwner: number },
      parts?: { crypto?: StoreCrypto; server?: () => ParleyServer },
    ): TaskRuntime;
  }>;
  /** Tracing with the given @opentelemetry/api, else the installed one (Node); undefined when there is none. */
  otel(given: OtelApi | undefined): Promise<Telemetry | undefined>;
}
