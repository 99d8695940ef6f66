// Building a server's persistent questions from their checked options: the store they name, the codec, people auth
// and their sign-in.
import { formatRecord, readEnv, type EnvSource, type Logger } from '../runtime';
import type { ParleyConfig } from '../model';
import { memoryStore, redisOptionsSchema, type StoreBackend } from '../stores';
import { DEFAULT_KEY_PREFIX, openBounded, redisChoice, redisFromEnv, sqliteChoice, storeLog } from './store-choice';
import { encryptionSecret } from './store-factory';
import { createPersonSignIn, signInIssuer } from '../auth';
// Loaded only on Node (app/questions.ts refuses an edge runtime), through "#node-only" like the drivers it opens.
import { drivers } from '#node-only';
export { readPersistentOptions } from '../inbox';
import {
  QuestionCodec,
  InvalidQuestionStoreError,
  type PersistentOptions,
  LoopbackTokenAuth,
  QuestionStore,
  QuestionService,
  createNotify,
  readNotifyOption,
  ActionLinks,
} from '../inbox';

/** Persistent questions from options that passed (inbox/options.ts checks them): their store, codec and people auth. */
export async function buildQuestionService(
  config: ParleyConfig,
  options: PersistentOptions,
  env: EnvSource,
  logger: Logger,
): Promise<QuestionService> {
  const oidc = config.http.auth?.oidc;
  const issuer = oidc && signInIssuer(oidc, config.auth); // refused before any store is opened
  const secret = encryptionSecret(env);
  const { backend, keyPrefix } = await openStore(config, options, env, logger, secret !== undefined);
  const codec = new QuestionCodec(`${keyPrefix}questions:${encodeURIComponent(config.info.name)}:`, secret);
  // Sessions (and one-time codes) are people auth's, whichever way a person signs in.
  const people =
    config.http.auth?.people === 'loopback-token' || oidc ? new LoopbackTokenAuth(config.info.name, backend, codec) : undefined;
  // Debug, as the elicitation store's line: serve()'s banner shows the inbox; this is the detail behind it.
  logger.debug(
    `Created question store ${formatRecord({ type: backend.type, server: config.info.name, encrypted: codec.encrypted, inboxLinks: options.inboxLinks })}`,
  );
  if (!people)
    logger.warn(
      "elicitation.persistent is on without people auth: nobody can sign in to the inbox. Set http: { auth: { people: 'loopback-token' } }.",
    );
  const port = config.http.port;
  const service = new QuestionService(new QuestionStore(backend, codec), options, people, port ? `http://127.0.0.1:${port}` : undefined);
  if (oidc && issuer) service.signIn = createPersonSignIn(oidc, issuer, logger);
  const notify = readNotifyOption(options.notify);
  if (notify) {
    if (typeof notify !== 'function') {
      if (notify.includeLink && !people)
        throw new InvalidQuestionStoreError("notify.includeLink needs people auth: set http: { auth: { people: 'loopback-token' } }");
      if (notify.actionLinks === 'signed-in' && !people)
        throw new InvalidQuestionStoreError(
          "notify.actionLinks: 'signed-in' needs people auth (set http: { auth: { people: 'loopback-token' } }), or use 'possession'",
        );
      // Signed-in links by default where people can sign in; none where nobody can.
      const access = notify.actionLinks ?? (people ? 'signed-in' : 'off');
      if (access !== 'off') service.actionLinks = new ActionLinks(service.store, notify.secret, access, notify.actionLinkMaxAgeMs);
    }
    service.notify = createNotify(notify, {
      server: config.info.name,
      logger,
      people,
      origin: () => service.origin ?? service.fallbackOrigin,
      ...(service.actionLinks ? { actionLinks: service.actionLinks } : {}),
    });
  }
  return service;
}

/** persistent.storage, else elicitation.redis, else the server's redis, else its sqlite, else the default file. */
async function openStore(
  config: ParleyConfig,
  options: PersistentOptions,
  env: EnvSource,
  logger: Logger,
  encrypted: boolean,
): Promise<{ backend: StoreBackend; keyPrefix: string }> {
  const log = storeLog('Question store', logger);
  const timeoutMs = config.elicitation.storeTimeoutMs;
  const redis = async (value: unknown, from: string) => {
    const parsed = redisOptionsSchema.safeParse(value);
    if (!parsed.success) throw new InvalidQuestionStoreError(`${from}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    const choice = redisChoice(parsed.data, 'redis', env);
    if (choice.refused) throw new InvalidQuestionStoreError(`${from}: ${choice.refused}`);
    return { backend: await openBounded(choice, log, timeoutMs), keyPrefix: choice.keyPrefix };
  };
  const sqlite = async (path: string) => ({
    backend: await openBounded(sqliteChoice({ path }), log, timeoutMs),
    keyPrefix: DEFAULT_KEY_PREFIX,
  });
  const homeFile = async () => {
    const place = (await drivers.questionsHome()).defaultQuestionFile(readEnv('FRONTMCP_HOME', env), encrypted);
    if ('refused' in place) throw new InvalidQuestionStoreError(place.refused);
    return sqlite(place.path);
  };
  const serverSqlite = (config.sqlite as { path?: unknown } | undefined)?.path;
  const storage = options.storage;
  if (storage?.type === 'memory') return { backend: memoryStore(), keyPrefix: DEFAULT_KEY_PREFIX };
  if (storage?.type === 'redis') {
    // Redis from the environment last, as for the elicitation store (configuration.md: REDIS_URL, else REDIS_HOST).
    const value = storage.redis ?? config.elicitation.redis ?? config.redis ?? redisFromEnv(env);
    if (value === undefined)
      throw new InvalidQuestionStoreError(
        "storage { type: 'redis' } needs Redis options: storage.redis, elicitation.redis, the server's redis, or REDIS_URL in the environment",
      );
    return redis(value, 'storage.redis');
  }
  if (storage?.type === 'sqlite') {
    const path = storage.sqlite?.path ?? serverSqlite;
    return typeof path === 'string' ? sqlite(path) : homeFile();
  }
  if (config.elicitation.redis !== undefined) return redis(config.elicitation.redis, 'elicitation.redis');
  if (config.redis !== undefined) return redis(config.redis, 'redis');
  if (typeof serverSqlite === 'string') return sqlite(serverSqlite);
  return homeFile();
}
