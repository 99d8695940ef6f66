// Building a server's persistent questions from their checked options: the store they name, the codec, people auth
// and their sign-in. On an edge runtime (loaded there once the entry called enableInbox()) they live in the
// elicitation store, and nothing Node-only (the default file and its permission checks) is reached.
import { formatRecord, readEnv, type EnvSource, type Logger } from '../runtime';
import type { ParleyConfig } from '../model';
import { memoryStore, redisOptionsSchema, type StoreBackend } from '../stores';
import { DEFAULT_KEY_PREFIX, openBounded, redisChoice, redisFromEnv, sqliteChoice, storeLog } from './store-choice';
import { encryptionSecret } from './store-factory';
import { signInIssuer } from '../auth';
// Node's drivers, or the edge's stand-ins (which the edge path below never asks for the default file).
import { drivers } from '#node-only';
import type { EdgeQuestionHome } from './node-only';
export { readPersistentOptions } from '../inbox';
export { checkAddressing } from './addressing-check';
import {
  EDGE_REFUSAL,
  QuestionCodec,
  InvalidQuestionStoreError,
  type PersistentOptions,
  LoopbackTokenAuth,
  QuestionStore,
  QuestionService,
  createNotify,
  readNotifyOption,
  ActionLinks,
  DueNudges,
} from '../inbox';

/**
 * Persistent questions from options that passed (inbox/options.ts checks them): their store, codec and people auth.
 * `edgeHome` is given on an edge runtime: the elicitation store they live in there, if the isolate has one.
 */
export async function buildQuestionService(
  config: ParleyConfig,
  options: PersistentOptions,
  env: EnvSource,
  logger: Logger,
  edgeHome?: EdgeQuestionHome,
): Promise<QuestionService> {
  const oidc = config.http.auth?.oidc;
  const issuer = oidc && signInIssuer(oidc, config.auth); // refused before any store is opened
  // Its code is loaded only where people sign in with it (in an edge bundle, once the entry called enableOidcSignIn()).
  const oidcSignIn =
    oidc &&
    (await drivers.signIn().catch((error: Error) => {
      throw new Error(`Invalid server configuration:\n  http.auth.oidc: ${error.message}`);
    }));
  const secret = encryptionSecret(env);
  // A sign-in's flow is sealed into its cookie; without a shared secret only the isolate that sealed it opens it.
  if (oidc && edgeHome && secret === undefined) throw new Error(EDGE_SIGN_IN_SECRET);
  const place = { config, options, env, logger };
  const { backend, keyPrefix } = edgeHome ? await openEdgeStore(place, edgeHome) : await openStore(place, secret !== undefined);
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
  if (oidc && issuer && oidcSignIn) {
    service.signIn = oidcSignIn.createPersonSignIn(oidc, issuer, logger);
    service.deadlines = new oidcSignIn.Escalations(service); // addressed questions' escalation and expiry, loaded with it
  }
  if (oidc?.groupsClaim && people) people.groupsClaim = oidc.groupsClaim;
  // An edge isolate's timers end with its request: nudges that wait are kept in the store.
  if (edgeHome) service.dueNudges = new DueNudges(service.store, () => service.origin);
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
      ...(service.dueNudges ? { retries: service.dueNudges } : {}),
    });
  }
  return service;
}

const EDGE_SIGN_IN_SECRET =
  "Invalid server configuration:\n  http.auth.oidc on an edge runtime needs MCP_ELICITATION_SECRET, the same for every isolate: a sign-in's cookie is sealed with it";

interface Place {
  config: ParleyConfig;
  options: PersistentOptions;
  env: EnvSource;
  logger: Logger;
}

type Opened = { backend: StoreBackend; keyPrefix: string };

/** Opens the Redis that `value` names (persistent.storage.redis or a fallback); `edge` refuses one over TCP. */
async function openRedis({ config, env, logger }: Place, value: unknown, from: string, edge = false): Promise<Opened> {
  const parsed = redisOptionsSchema.safeParse(value);
  if (!parsed.success) throw new InvalidQuestionStoreError(`${from}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const choice = redisChoice(parsed.data, 'redis', env);
  if (choice.refused) throw new InvalidQuestionStoreError(`${from}: ${choice.refused}`);
  if (edge && choice.notOnEdge) throw new InvalidQuestionStoreError(`${from}: ${choice.notOnEdge}`);
  const log = storeLog('Question store', logger);
  return { backend: await openBounded(choice, log, config.elicitation.storeTimeoutMs), keyPrefix: choice.keyPrefix };
}

/**
 * On an edge runtime: Redis over HTTP when persistent.storage names it, else the elicitation store (Durable Objects or
 * Redis over HTTP), which is already open; memory (it ends with the isolate) and SQLite (no file) are refused.
 */
async function openEdgeStore(place: Place, home: EdgeQuestionHome): Promise<Opened> {
  const storage = place.options.storage;
  const other = storage?.type === 'memory' ? 'ends with the isolate' : storage?.type === 'sqlite' ? 'needs a local file' : undefined;
  if (other)
    throw new InvalidQuestionStoreError(
      `storage { type: '${storage!.type}' } ${other} on an edge runtime: leave storage out, and questions are kept in the elicitation store (Durable Objects, or Redis over HTTP)`,
    );
  if (storage?.type === 'redis' && storage.redis !== undefined) return openRedis(place, storage.redis, 'storage.redis', true);
  if (!home.store) throw new InvalidQuestionStoreError(EDGE_REFUSAL);
  return { backend: home.store.backend, keyPrefix: home.store.keyPrefix };
}

/** persistent.storage, else elicitation.redis, else the server's redis, else its sqlite, else the default file. */
async function openStore(place: Place, encrypted: boolean): Promise<Opened> {
  const { config, options, env, logger } = place;
  const log = storeLog('Question store', logger);
  const timeoutMs = config.elicitation.storeTimeoutMs;
  const redis = (value: unknown, from: string) => openRedis(place, value, from);
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
