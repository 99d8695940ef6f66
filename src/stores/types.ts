// The store contract: a few methods every backend implements, and flags that say what it can do.
/** Called with each message published on a channel this process subscribed to. */
export type MessageHandler = (message: string) => void;

export interface StoreBackend {
  /** What the backend is, for the startup log: 'memory', 'sqlite', 'redis', 'redis-http'. */
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
  close(): Promise<void>;
}
