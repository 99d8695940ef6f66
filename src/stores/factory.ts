// Choosing the elicitation store from the config, as the docs' table says, and naming it in the startup log.
// So far only memory; Redis, SQLite, Redis over HTTP and the edge refusals join as their backends land.
import { formatRecord, readEnv, type EnvSource, type Logger } from '../runtime';
import type { FrontMcpConfig } from '../server/config';
import { memoryStore } from './memory';
import type { StoreBackend } from './types';

export interface ElicitationStoreInfo {
  type: string;
  keyPrefix: string;
  supportsPubSub: boolean;
  encrypted: boolean;
}

export interface ElicitationStore {
  backend: StoreBackend;
  keyPrefix: string;
  /** The secret records are encrypted with (MCP_ELICITATION_SECRET, else MCP_SESSION_SECRET, else MCP_SERVER_SECRET). */
  secret?: string;
  info: ElicitationStoreInfo;
}

export const encryptionSecret = (env: EnvSource): string | undefined =>
  readEnv('MCP_ELICITATION_SECRET', env) ?? readEnv('MCP_SESSION_SECRET', env) ?? readEnv('MCP_SERVER_SECRET', env);

export async function createElicitationStore(config: FrontMcpConfig, env: EnvSource, logger: Logger): Promise<ElicitationStore> {
  void config;
  const backend = memoryStore();
  const secret = encryptionSecret(env);
  const info = { type: backend.type, keyPrefix: 'mcp:', supportsPubSub: backend.supportsPubSub, encrypted: secret !== undefined };
  logger.info(`Created elicitation store ${formatRecord({ ...info })}`);
  return { backend, keyPrefix: info.keyPrefix, secret, info };
}
