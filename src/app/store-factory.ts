// Opening the elicitation store the config chose, refusing the places it can't serve, and naming it in the startup log.
import { formatRecord, INSPECT, inspectFields, isEdgeRuntime, readEnv, type EnvSource, type Logger } from '../runtime';
import type { ParleyConfig } from '../model';
import { ElicitationNotSupportedError } from '../protocol';
import { chooseElicitationStore, openBounded, storeLog } from './store-choice';
import type { ElicitationStore } from '../stores';

const EDGE_NEEDS_DISTRIBUTED = 'Elicitation requires distributed storage when running on Edge runtime';

export const encryptionSecret = (env: EnvSource): string | undefined =>
  readEnv('MCP_ELICITATION_SECRET', env) ?? readEnv('MCP_SESSION_SECRET', env) ?? readEnv('MCP_SERVER_SECRET', env);

/**
 * Opens the store for pending elicitations of clients before 2026-07-28, as the docs' table chooses it.
 * Resolves to undefined only on an edge isolate with `elicitation.edge: 'stateless'` and no store that serves there.
 * @example const store = await createElicitationStore(config, env, logger);
 */
export async function createElicitationStore(config: ParleyConfig, env: EnvSource, logger: Logger): Promise<ElicitationStore | undefined> {
  const choice = chooseElicitationStore(config, env);
  if (choice.refused) throw new ElicitationNotSupportedError(choice.refused);
  if (isEdgeRuntime()) {
    // A store the config names but the isolate can't run is the config's mistake: say so. One only found in the
    // environment counts as no store at all.
    if (choice.notOnEdge && choice.source !== 'env' && choice.source !== 'memory') throw new ElicitationNotSupportedError(choice.notOnEdge);
    if (!choice.distributed || choice.notOnEdge) {
      if (config.elicitation.edge !== 'stateless') throw new ElicitationNotSupportedError(EDGE_NEEDS_DISTRIBUTED);
      logger.info(
        "No elicitation store on this Edge runtime (elicitation.edge: 'stateless'): clients on 2026-07-28 are asked through requestState; older clients can't be asked",
      );
      return undefined;
    }
  }
  const backend = await openBounded(choice, storeLog(`Elicitation store (${choice.source})`, logger), config.elicitation.storeTimeoutMs);
  const secret = encryptionSecret(env);
  const info = { type: backend.type, keyPrefix: choice.keyPrefix, supportsPubSub: backend.supportsPubSub, encrypted: secret !== undefined };
  // Debug: serve()'s banner names the store; this is the detail behind it.
  logger.debug(`Created elicitation store ${formatRecord({ ...info })}`);
  // Sessions go wherever the questions do: a store shared with other instances, however it was found (REDIS_URL alone
  // too, where FrontMCP kept sessions in memory and an answer posted to another instance got 404).
  return new OpenedStore(secret, {
    backend,
    keyPrefix: info.keyPrefix,
    info,
    source: choice.source,
    sessionsDistributed: backend.distributed,
  });
}

/** An opened store: its fields as given, and the encryption secret behind a getter over a #private field (never serialized). */
// biome-ignore lint/correctness/noUnusedVariables: merged into the class of the same name
interface OpenedStore extends Omit<ElicitationStore, 'secret'> {}
class OpenedStore implements ElicitationStore {
  readonly #secret: string | undefined;

  constructor(secret: string | undefined, fields: Omit<ElicitationStore, 'secret'>) {
    this.#secret = secret;
    Object.assign(this, fields);
  }

  get secret(): string | undefined {
    return this.#secret;
  }

  [INSPECT](_depth: number, options: { depth?: number | null }, inspect: Parameters<typeof inspectFields>[3]): string {
    return inspectFields('ElicitationStore', this, options, inspect);
  }
}
