// The store contract: a few methods every backend implements, and flags that say what it can do.
/** Called with each message published on a channel this process subscribed to. */
export type MessageHandler = (message: string) => void;

export interface StoreBackend {
  /** What the backend is, for the startup log: 'memory', 'sqlite', 'redis', 'redis-http', 'durable-objects'. */
  readonly type: string;
  /** Publish/subscribe reaches other processes (not only this one). */
  readonly supportsPubSub: boolean;
  /** Data is shared with other processes or machines (not only this process). */
  readonly distributed: boolean;

  get(key: string): Promise<string | undefined>;
  /** Stores a value; with ttlMs it expires on its own. */
  set(key: string, value: string, ttlMs?: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Reads and deletes in one step: of several callers, exactly one gets the value. */
  take(key: string): Promise<string | undefined>;
  /**
   * Resolves with how many subscribers the message reached: Redis's own count (every process subscribed to the
   * channel) for a backend with `supportsPubSub`, this store object's subscribers for one without. 0 means nobody heard it.
   */
  publish(channel: string, message: string): Promise<number>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(channel: string, onMessage: MessageHandler): Promise<() => Promise<void>>;
  /**
   * Calls `listener` each time the connection to the store is back after it dropped: the store may have restarted
   * meanwhile, without its data. Only backends that connect to a server have it; the returned function stops listening.
   */
  onRestored?(listener: () => void): () => void;
  /** Sorted sets, where the backend keeps them (Durable Objects, Redis over HTTP): see StoreSortedSets. */
  readonly sortedSets?: StoreSortedSets;
  close(): Promise<void>;
}

/**
 * Members with a score under one key, each added or removed in one step, so that writers on several instances lose
 * none (a get-and-set of one value would lose a concurrent writer's change). What waits for a time is kept so on the
 * edge: the score is when it is due (inbox/due-nudges.ts).
 */
export interface StoreSortedSets {
  /**
   * Adds `member` (or moves it to `score`); the key lives at least `ttlMs` more; past `max` members the lowest-scored go.
   * `wake`: a URL of the server's to GET when a member comes due, for a backend with a timer of its own (a Durable
   * Object's alarm, with the Worker's self binding); the others keep the member until a request asks.
   */
  add(key: string, member: string, score: number, options: { ttlMs: number; max: number; wake?: string }): Promise<void>;
  /** The members scored `maxScore` or less, lowest first, at most `limit`. */
  upTo(key: string, maxScore: number, limit: number): Promise<string[]>;
  remove(key: string, member: string): Promise<void>;
}

/** 'upstash-env': Redis over HTTP from UPSTASH_REDIS_REST_URL/TOKEN (see redisHttpChoice); 'durable-objects': enableDurableObjects(). */
export type StoreSource =
  | 'elicitation.redis'
  | 'redis'
  | 'sqlite'
  | 'persistent.storage'
  | 'durable-objects'
  | 'env'
  | 'upstash-env'
  | 'memory';

interface ElicitationStoreInfo {
  type: string;
  keyPrefix: string;
  supportsPubSub: boolean;
  encrypted: boolean;
}

export interface ElicitationStore {
  backend: StoreBackend;
  keyPrefix: string;
  /**
   * The secret records are encrypted with (MCP_ELICITATION_SECRET, else MCP_SESSION_SECRET, else MCP_SERVER_SECRET).
   * The factory's stores hold it in a #private field behind this getter, so JSON.stringify and util.inspect never show it.
   */
  readonly secret?: string;
  info: ElicitationStoreInfo;
  /** Which row of the docs' table chose the store. */
  source?: StoreSource;
  /**
   * Sessions live in this store too: it is shared with other processes (Redis, however it was found, or SQLite).
   * (Optional so a stand-in store can leave it out: absent means false.)
   */
  sessionsDistributed?: boolean;
}
