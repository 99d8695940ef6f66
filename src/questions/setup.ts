// Building a server's persistent questions from its config: options, the store it names, the codec and people auth.
import { formatRecord, isEdgeRuntime, type EnvSource, type Logger } from '../runtime';
import type { FrontMcpConfig } from '../server/config';
import { encryptionSecret, memoryStore, type StoreBackend } from '../stores';
import { QuestionCodec } from './codec';
import { EDGE_REFUSAL, InvalidQuestionStoreError } from './errors';
import { readPersistentOptions, type PersistentOptions } from './options';
import { LoopbackTokenAuth } from './people';
import { QuestionStore } from './question-store';
import { QuestionService } from './service';

export async function createQuestionService(config: FrontMcpConfig, env: EnvSource, logger: Logger): Promise<QuestionService | undefined> {
  const options = readPersistentOptions(config.elicitation.persistent);
  if (!options) return undefined;
  if (!config.elicitation.enabled) throw new InvalidQuestionStoreError('it needs elicitation.enabled: true');
  if (isEdgeRuntime()) throw new InvalidQuestionStoreError(EDGE_REFUSAL);
  const secret = encryptionSecret(env);
  const backend = await openBackend(config, options, secret !== undefined);
  const codec = new QuestionCodec(`mcp:questions:${encodeURIComponent(config.info.name)}:`, secret);
  const people = config.http.auth?.people === 'loopback-token' ? new LoopbackTokenAuth(config.info.name, backend, codec) : undefined;
  logger.info(`Created question store ${formatRecord({ type: backend.type, server: config.info.name, encrypted: codec.encrypted, inboxLinks: options.inboxLinks })}`);
  if (!people) logger.warn("elicitation.persistent is on without people auth: nobody can sign in to the inbox. Set http: { auth: { people: 'loopback-token' } }.");
  const port = config.http.port;
  return new QuestionService(new QuestionStore(backend, codec), options, people, port ? `http://127.0.0.1:${port}` : undefined);
}

/** persistent.storage, else elicitation.redis, else the server's redis, else its sqlite, else the default file. */
async function openBackend(config: FrontMcpConfig, options: PersistentOptions, encrypted: boolean): Promise<StoreBackend> {
  const storage = options.storage;
  if (storage?.type === 'memory') return memoryStore();
  void encrypted;
  throw new InvalidQuestionStoreError(`storage ${storage ? `'${storage.type}'` : '(default)'} is not available yet; use storage: { type: 'memory' }`);
}
