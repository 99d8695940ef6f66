// Persistent questions at startup: their options and refusals here, the subsystem itself loaded only where it can run.
import { isEdgeRuntime, type EnvSource, type Logger } from '../runtime';
import type { ParleyConfig, ToolEntry } from '../model';
import type { ElicitationStore } from '../stores';
// Node resolves the real subsystem, an edge bundle a stand-in (package.json "imports") that has it once the entry
// called enableInbox() (parley-mcp/inbox), and refuses it otherwise.
import { drivers } from '#node-only';
import { InvalidQuestionStoreError, type QuestionService } from '../inbox';

/**
 * The server's persistent questions, undefined while `elicitation.persistent` is off; throws when they can't be served.
 * `elicitationStore` is where they live on an edge runtime (Durable Objects or Redis over HTTP); Node opens their own.
 */
export async function createQuestionService(
  config: ParleyConfig,
  env: EnvSource,
  logger: Logger,
  elicitationStore?: ElicitationStore,
  tools?: ReadonlyMap<string, ToolEntry>,
): Promise<QuestionService | undefined> {
  // The policy is checked where it runs: an edge bundle's stand-in refuses it unless the entry called enableInbox().
  if (config.elicitation.unanswered) {
    const loaded = await drivers.unanswered().then(
      (policy) => policy.unansweredConfigProblem(config.elicitation),
      (error: Error) => error.message,
    );
    if (loaded) throw new Error(`Invalid server configuration:\n  elicitation.unanswered: ${loaded}`);
  }
  const persistent = config.elicitation.persistent;
  if (persistent === undefined || persistent === false) {
    for (const { name, options } of tools?.values() ?? [])
      if (options.to) throw new Error(`Tool "${name}": \`to\` needs elicitation.persistent and http.auth.oidc`);
    // Sign-in is the inbox's, and there is no inbox: say so rather than ignore a setting someone wrote on purpose.
    for (const name of ['people', 'oidc'] as const)
      if (config.http.auth?.[name])
        logger.warn(
          `http.auth.${name} is set but unused: people sign in with it to the inbox, and persistent questions are off. Set elicitation.persistent, or remove http.auth.${name}.`,
        );
    return undefined;
  }
  const subsystem = await drivers.questions().catch((error: Error) => {
    throw new InvalidQuestionStoreError(error.message);
  });
  const options = subsystem.readPersistentOptions(persistent)!;
  if (!config.elicitation.enabled) throw new InvalidQuestionStoreError('it needs elicitation.enabled: true');
  // Whom tools and the policy address, checked here, where persistent questions load (a Worker without them has none).
  subsystem.checkAddressing(config, tools);
  // On an edge runtime they live in the elicitation store: no file, no connection of their own.
  const edgeHome = isEdgeRuntime() ? { store: elicitationStore } : undefined;
  return subsystem.buildQuestionService(config, options, env, logger, edgeHome);
}
