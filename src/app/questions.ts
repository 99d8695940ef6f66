// Persistent questions at startup: their options and refusals here, the subsystem itself loaded only where it can run.
import { isEdgeRuntime, type EnvSource, type Logger } from '../runtime';
import type { ParleyConfig } from '../model';
// Node resolves the real subsystem, an edge bundle a stand-in (package.json "imports"), after the edge refusal below.
import { drivers } from '#node-only';
import { EDGE_REFUSAL, InvalidQuestionStoreError, type QuestionService } from '../inbox';

/** The server's persistent questions, undefined while `elicitation.persistent` is off; throws when they can't be served. */
export async function createQuestionService(config: ParleyConfig, env: EnvSource, logger: Logger): Promise<QuestionService | undefined> {
  // The policy is checked where it runs: an edge bundle's stand-in refuses it (it is left out there).
  if (config.elicitation.unanswered) {
    const loaded = await drivers.unanswered().then(
      (policy) => policy.unansweredConfigProblem(config.elicitation),
      (error: Error) => error.message,
    );
    if (loaded) throw new Error(`Invalid server configuration:\n  elicitation.unanswered: ${loaded}`);
  }
  const persistent = config.elicitation.persistent;
  if (persistent === undefined || persistent === false) {
    // Sign-in is the inbox's, and there is no inbox: say so rather than ignore a setting someone wrote on purpose.
    for (const name of ['people', 'oidc'] as const)
      if (config.http.auth?.[name])
        logger.warn(
          `http.auth.${name} is set but unused: people sign in with it to the inbox, and persistent questions are off. Set elicitation.persistent, or remove http.auth.${name}.`,
        );
    return undefined;
  }
  // Refused on an edge runtime before its options are read: their checks, like the subsystem, are Node's only.
  if (isEdgeRuntime()) throw new InvalidQuestionStoreError(EDGE_REFUSAL);
  const subsystem = await drivers.questions();
  const options = subsystem.readPersistentOptions(persistent)!;
  if (!config.elicitation.enabled) throw new InvalidQuestionStoreError('it needs elicitation.enabled: true');
  return subsystem.buildQuestionService(config, options, env, logger);
}
