// Building a server from its config: validated options, the registry, the state key and the logger. Done once, lazily.
// Its secrets stay where neither JSON.stringify nor util.inspect reach them: the environment in a #private field, keys
// in closures, and the server's copy of its config redacted (the stores and the bearer verifier took the real values).
import { randomBytes, secretList } from '../crypto';
import { createStateKeys, type StateKeys } from '../elicitation/state-keys';
import { createBearerVerifier, type BearerVerifier } from '../http/auth';
import { createLogger, createRedactor, INSPECT, inspectFields, isProduction, readEnv, redactingLogger, secretsIn, type EnvSource, type Logger } from '../runtime';
import { parseConfig, type FrontMcpConfig, type FrontMcpConfigInput } from './config';
import { serverOptionsOf } from './decorators';
import { createChangeHub, type ChangeHub } from './changes';
import { buildPrompts, type PromptEntry } from './prompt-registry';
import { buildRegistry, type ToolEntry } from './registry';
import { buildResources, type Resources } from './resource-registry';
import { createElicitationStore, type ElicitationStore } from '../stores';
import { createQuestionService } from '../questions/open';
import { drivers } from '#store-drivers';
import type { Telemetry } from '../runtime/telemetry';
import type { QuestionService } from '../questions/service';

export interface ParleyServer {
  /** The validated config with its secrets redacted (`***`): read options here, never credentials. */
  config: FrontMcpConfig;
  info: { name: string; version: string; title?: string };
  tools: Map<string, ToolEntry>;
  /** tools/list's tools, computed once: the list never varies per connection. */
  toolList: Record<string, unknown>[];
  prompts: Map<string, PromptEntry>;
  promptList: Record<string, unknown>[];
  resources: Resources;
  resourceList: Record<string, unknown>[];
  templateList: Record<string, unknown>[];
  /** Announces list changes and resource updates to open listen streams. */
  changes: ChangeHub;
  logger: Logger;
  /** The keys of requestState: the first seals (or signs) new states, any of them opens one it issued. */
  stateKeys: StateKeys;
  /** True when no VAULT_SECRET or JWT_SECRET was set, so the key is this process's own. */
  ephemeralStateKey: boolean;
  production: boolean;
  /** The platform's env bindings (a getter over a #private field: not serialized, not inspected). */
  readonly env: EnvSource;
  /** Verifies a bearer JWT when `auth` is set; its key lives in the verifier's closure. */
  verifyBearer?: BearerVerifier;
  cache: { ttlMs: number; scope: 'public' | 'private' };
  /** Where questions of clients before 2026-07-28 wait; present while elicitation is on. */
  elicitationStore?: ElicitationStore;
  /** Persistent questions, their inbox and people auth; present while `elicitation.persistent` is on. */
  questions?: QuestionService;
  /** OpenTelemetry spans; absent when @opentelemetry/api is not installed (or not passed in on an edge isolate). */
  telemetry?: Telemetry;
}

/** A config object, or a class decorated with @FrontMcp. */
export type ServerInput = FrontMcpConfigInput | Function;

export function configOf(input: ServerInput): FrontMcpConfigInput {
  if (typeof input !== 'function') return input;
  const options = serverOptionsOf(input);
  if (!options) throw new Error(`${input.name || 'The class'} is not decorated with @FrontMcp`);
  return options;
}

export async function buildServer(input: ServerInput, env?: EnvSource, changes: ChangeHub = createChangeHub()): Promise<ParleyServer> {
  const config = parseConfig(configOf(input));
  const redactor = createRedactor(secretsIn(config, env));
  const logger = config.logger ? redactingLogger(config.logger, redactor) : createLogger(config.logging?.level ?? 'info', undefined, redactor);
  const production = isProduction(env);
  const tools = buildRegistry(config.apps, { elicitation: config.elicitation.enabled });
  const prompts = buildPrompts(config.apps);
  const resources = buildResources(config.apps);
  // A comma-separated list, newest first: new states use the first, states of any listed key still open (rotation).
  const secrets = secretList(readEnv('VAULT_SECRET', env) ?? readEnv('JWT_SECRET', env));
  const stateKeys = await createStateKeys(secrets.length > 0 ? secrets : [randomBytes(32)]);
  if (secrets.length === 0 && production && (config.redis !== undefined || config.elicitation.redis !== undefined))
    logger.warn('requestState is signed with a per-process key: set VAULT_SECRET (or JWT_SECRET) to the same value on every instance, or rounds that reach another instance start over.');
  const elicitationStore = config.elicitation.enabled ? await createElicitationStore(config, env, logger) : undefined;
  const questions = await createQuestionService(config, env, logger);
  // Once per server: @opentelemetry/api given in the config, else loaded quietly where installed (Node only, not in an edge bundle).
  const telemetry = config.telemetry === false ? undefined : await drivers.otel(config.telemetry?.api);
  return new BuiltServer(env, {
    config: redactor.data(config),
    info: config.info,
    tools,
    toolList: [...tools.values()].map((t) => t.wire),
    prompts,
    promptList: [...prompts.values()].map((p) => p.wire),
    resources,
    resourceList: [...resources.fixed.values()].map((r) => r.wire),
    templateList: resources.templates.map((t) => t.wire),
    changes,
    logger,
    stateKeys,
    ephemeralStateKey: secrets.length === 0,
    production,
    verifyBearer: createBearerVerifier(config.auth),
    cache: config.cache ?? { ttlMs: 60_000, scope: 'public' },
    elicitationStore,
    questions,
    telemetry,
  });
}

/** A built server: its fields as given, and the environment behind a getter, so serializing the server never shows it. */
// The interface merges the fields in (set by Object.assign); the class adds only the #private environment.
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
