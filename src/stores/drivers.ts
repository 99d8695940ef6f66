// The shape of the store drivers the factory loads on first use: Node gets the real ones, an edge bundle a stand-in.
import type { RedisTcpOptions, SqliteOptions } from './options';
import type { StoreBackend } from './types';

export interface StoreDrivers {
  redis(): Promise<{ createRedisStore(options: RedisTcpOptions | string, extra: { onError?: (error: Error) => void }): Promise<StoreBackend> }>;
  sqlite(): Promise<{ createSqliteStore(options: SqliteOptions): Promise<StoreBackend> }>;
  /** The default file of persistent questions ($FRONTMCP_HOME/questions.sqlite) and its permission checks. */
  questionsHome(): Promise<{ defaultQuestionFile(home: string | undefined, encrypted: boolean): { path: string } | { refused: string } }>;
}
