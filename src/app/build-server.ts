// Building a server from its config: validated options, the registry, the state key and the logger. Done once, lazily.
// Its secrets stay where neither JSON.stringify nor util.inspect reach them: the environment in a #private field, keys
// in closures, and the server's copy of its config redacted (the stores and the bearer verifier took the real values).
import { createBearerVerifier } from '../auth';
import { randomBytes, secretList } from '../crypto';
import { createStateKeys } from '../elicitation';
import {
  createLegacyState,
  createSettler,
  ListenTable,
  RunningCalls,
  watchChanges,
  type ParleyServer,
  type Platform,
  type TaskRuntime,
} from '../engine';
import {
  createLogger,
  createRedactor,
  INSPECT,
  inspectFields,
  isEdgeRuntime,
  isProduction,
  readEnv,
  redactingLogger,
  secretsIn,
  defaultTurnEnd,
  type EnvSource,
} from '../runtime';
import { Responder } from '../protocol';
import {
  parseConfig,
  type ParleyConfig,
  type ParleyConfigInput,
  serverOptionsOf,
  createChangeHub,
  type ChangeHub,
  buildPrompts,
  buildRegistry,
  buildResources,
  type ToolEntry,
} from '../model';
import type { ElicitationStore } from '../stores';
import { createElicitationStore } from './store-factory';
import { createQuestionService } from './questions';
import { drivers } from '#node-only';

/** A config object, or a class decorated with @FrontMcp. */
export type ServerInput = ParleyConfigInput | Function;

export function configOf(input: ServerInput): ParleyConfigInput {
  if (typeof input !== 'function') return input;
  const options = serverOptionsOf(input);
  if (!options) throw new Error(`${input.name || 'The class'} is not decorated with @FrontMcp`);
  return options;
}

/** `platform`: what a runtime adapter passes (parley-mcp/node: its response writer, end of turn and node:crypto). */
export async function buildServer(
  input: ServerInput,
  env?: EnvSource,
  changes: ChangeHub = createChangeHub(),
  platform: Platform = {},
): Promise<ParleyServer> {
  const config = parseConfig(configOf(input));
  const redactor = createRedactor(secretsIn(config, env));
  const logger = config.logger
    ? redactingLogger(config.logger, redactor)
    : createLogger({ level: config.logging?.level, format: config.logging?.format }, undefined, redactor);
  const production = isProduction(env);
  const tools = buildRegistry(config.apps, { elicitation: config.elicitation.enabled });
  const prompts = buildPrompts(config.apps);
  const resources = buildResources(config.apps);
  // Skills' files join the resources (their methods' answers as resources.skills) and the extension the declared ones.
  await config.skills?.(resources, config);
  // A comma-separated list, newest first: new states use the first, states of any listed key still open (rotation).
  const secrets = secretList(readEnv('VAULT_SECRET', env) ?? readEnv('JWT_SECRET', env));
  const stateKeys = await createStateKeys(secrets.length > 0 ? secrets : [randomBytes(32)], platform);
  const ephemeralKeyWarned = secrets.length === 0 && production && (config.redis !== undefined || config.elicitation.redis !== undefined);
  if (ephemeralKeyWarned)
    logger.warn(
      'requestState is signed with a per-process key: set VAULT_SECRET (or JWT_SECRET) to the same value on every instance, or rounds that reach another instance are refused.',
    );
  if (production && resourceFromRequests(config))
    logger.warn(
      'auth: the resource (the audience a token must carry) is taken from each request: set auth.resource, or http.publicUrl, to the public URL of the MCP endpoint (behind a proxy, or set http.trustProxy).',
    );
  const elicitationStore = config.elicitation.enabled ? await createElicitationStore(config, env, logger) : undefined;
  // A cut stretch of task work is replayed by the server below, which exists by the time a reader claims one.
  const tasks = await taskRuntimeOf(config, tools, elicitationStore, { platform, server: () => server });
  const questions = await createQuestionService(config, env, logger, elicitationStore, tools);
  const granting = [...tools.values()].find((t) => t.options.grant !== undefined);
  if (granting && !questions)
    throw new Error(
      `Tool "${granting.name}" offers standing approvals (grant), which are kept with persistent questions: set elicitation.persistent`,
    );
  // Once per server: @opentelemetry/api given in the config, else loaded quietly where installed (Node only, not in an edge bundle).
  const telemetry = config.telemetry === false ? undefined : await drivers.otel(config.telemetry?.api);
  const legacy = createLegacyState({
    settings: config,
    store: elicitationStore,
    logger,
    sessionSecret: () => readEnv('MCP_SESSION_SECRET', env),
    // Called when a session opens, so after the server below exists.
    watch: (session, send) => watchChanges(server, session, send),
  });
  const serverConfig = redactor.data(config);
  const server: ParleyServer = new BuiltServer(env, {
    config: serverConfig,
    info: config.info,
    tools,
    toolList: [...tools.values()].map((t) => t.wire),
    prompts,
    promptList: [...prompts.values()].map((p) => p.wire),
    resources,
    resourceList: [...resources.fixed.values()].map((r) => r.wire),
    templateList: resources.templates.map((t) => t.wire),
    changes,
    listens: new ListenTable(config.http.listen, logger),
    running: new RunningCalls(),
    logger,
    respond: new Responder(platform.respond, platform.stream),
    settle: createSettler(platform.turnEnd ?? defaultTurnEnd),
    stateKeys,
    ephemeralStateKey: secrets.length === 0,
    ephemeralKeyWarned,
    production,
    verifyBearer: createBearerVerifier(config.auth, platform.hmac),
    cache: config.cache ?? { ttlMs: 60_000, scope: 'public' },
    elicitationStore,
    legacy,
    ...(tasks ? { tasks } : {}),
    questions,
    elicitSettings: {
      enabled: serverConfig.elicitation.enabled,
      production,
      hooks: serverConfig.elicitation.hooks,
      unanswered: serverConfig.elicitation.unanswered,
      // The policy's code, loaded on first use (Node; an edge build's stand-in refuses it).
      loadUnanswered: drivers.unanswered,
      // A tool's `to` (docs/approvals.md), read by its persistent questions.
      tools,
    },
    telemetry,
  });
  // The inbox answers tasks' questions too: its answers go to the task's open token, as tasks/update's do.
  if (questions && tasks)
    questions.tasks = { answerFromInbox: (task, answer, keepAlive) => tasks.answerFromInbox(server, task, answer, keepAlive) };
  return server;
}

/** A built server: its fields as given, and the environment behind a getter, so serializing the server never shows it. */
// The interface merges the fields in (set by Object.assign); the class adds only the #private environment.
// biome-ignore lint/correctness/noUnusedVariables: merged into the class of the same name
interface BuiltServer extends Omit<ParleyServer, 'env'> {}
class BuiltServer implements ParleyServer {
  readonly #env: EnvSource;

  constructor(env: EnvSource, fields: Omit<ParleyServer, 'env'>) {
    this.#env = env;
    Object.assign(this, fields);
  }

  get env(): EnvSource {
    return this.#env;
  }

  [INSPECT](_depth: number, options: { depth?: number | null }, inspect: Parameters<typeof inspectFields>[3]): string {
    return inspectFields('ParleyServer', this, options, inspect);
  }
}

/**
 * Tasks live in the elicitation store, with its keys and expiry: their code is loaded when a tool may run as a task
 * (in an edge bundle, once its entry called enableTasks()), and a server with such a tool and no store to keep tasks in
 * refuses to start.
 */
async function taskRuntimeOf(
  config: ParleyConfig,
  tools: Map<string, ToolEntry>,
  store: ElicitationStore | undefined,
  { platform, server }: { platform: Platform; server: () => ParleyServer },
): Promise<TaskRuntime | undefined> {
  const tool = [...tools.values()].find((t) => (t.options.execution?.taskSupport ?? 'forbidden') !== 'forbidden');
  if (!tool) return undefined;
  const because = `Tool "${tool.name}" may run as a task (execution.taskSupport)`;
  const module = await drivers.tasks().catch((error: Error) => {
    throw new Error(`${because}: ${error.message}`);
  });
  if (!store) throw new Error(`${because}, and tasks are kept in the elicitation store: ${module.whereToKeepTasks(isEdgeRuntime())}`);
  const { maxPerCaller, ended, ...limits } = config.tasks;
  const kept = { ...ended, maxPerCaller: ended.maxPerCaller ?? maxPerCaller };
  const { storeCrypto: crypto } = platform;
  return module.createTaskRuntime(store, { ...limits, ended: kept, maxPerOwner: maxPerCaller }, { ...(crypto ? { crypto } : {}), server });
}

/** True when tokens are checked against a resource nothing in the config names: only the request can say it. */
function resourceFromRequests(config: ParleyConfig): boolean {
  const auth = config.auth;
  if (!auth || auth.resource || auth.audience !== undefined || auth.verify || auth.secret !== undefined) return false;
  return !config.http.publicUrl && !config.http.trustProxy;
}
