// `to` where it is written once, checked at startup: on a tool (its persistent questions) and in
// elicitation.unanswered (where a question the client does not answer moves). Loaded with persistent questions
// (question-setup.ts), so a Worker without them carries none of it.
import { readAddressing } from '../inbox';
import type { AddressingOptions, ParleyConfig, ToolEntry } from '../model';
import { InvalidInputError } from '../protocol';

/**
 * Throws an InvalidInputError naming the tool (or `elicitation.unanswered`) whose `to`, `quorum` or `declines` is
 * empty or malformed, or that addresses anyone on a server where nobody signs in through the identity provider.
 */
export function checkAddressing(config: ParleyConfig, tools: ReadonlyMap<string, ToolEntry> | undefined): void {
  const places: [string, AddressingOptions][] = [...(tools?.values() ?? [])].map((t) => [`Tool "${t.name}"`, t.options]);
  const policy = config.elicitation.unanswered;
  if (policy) places.push(['elicitation.unanswered', policy]);
  for (const [where, given] of places) {
    if ((given.to ?? given.quorum ?? given.declines) === undefined) continue;
    try {
      readAddressing(given);
    } catch (error) {
      throw new InvalidInputError(`${where}: ${(error as Error).message}`);
    }
    if (!config.http.auth?.oidc)
      throw new InvalidInputError(`${where}: \`to\` is answered by people signed in at a provider: set http.auth.oidc`);
  }
}
