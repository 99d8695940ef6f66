// Reading the policy one question follows (the call's `unanswered` over the server's), and its reasons in words.
// Loaded with the policy, on Node only (stores/drivers-node.ts), so an edge bundle carries none of it.
import * as z from 'zod';
import { InvalidInputError } from '../protocol';
import { ADDRESSING_FIELDS, DEFAULT_AFTER_MS, type InboxReason, type UnansweredPolicy } from '../model';

/** The reasons in words, for the access log and the tool result. */
export const INBOX_REASONS: Readonly<Record<InboxReason, string>> = {
  persist: 'the tool keeps this question until it is answered',
  'client-never-answered': 'the client never answered it',
  'client-cannot-show-forms': 'the client cannot show forms',
  'filed-with-round': 'asked in the client and in the inbox at once; the first answer counts',
  task: 'a task waits for this answer; the client may answer it too, and the first answer counts',
};

const perCall = z.union([
  z.literal(false),
  z.strictObject({
    afterMs: z.number().int().positive().optional(),
    then: z.enum(['inbox', 'fail']).optional(),
    ...ADDRESSING_FIELDS,
  }),
]);

/** The policy one question follows: the call's option over the server's; undefined when none applies. */
export function policyFor(server: UnansweredPolicy | undefined, option: unknown): UnansweredPolicy | undefined {
  if (option === undefined) return server;
  const parsed = perCall.safeParse(option);
  if (!parsed.success)
    throw new InvalidInputError(
      `unanswered must be false or { afterMs?: positive integer ms, then?: 'inbox' | 'fail' }: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'unanswered'}: ${i.message}`).join('; ')}`,
    );
  if (parsed.data === false) return undefined;
  const then = parsed.data.then ?? server?.then;
  if (!then) throw new InvalidInputError("unanswered needs then: 'inbox' | 'fail' (the server sets no elicitation.unanswered)");
  // Each of the call's over the server's: `to`, `quorum` and `declines` too (zod leaves out what the call left out).
  return { ...server, ...parsed.data, afterMs: parsed.data.afterMs ?? server?.afterMs ?? DEFAULT_AFTER_MS, then };
}

/**
 * The startup check across options: moving questions to the inbox needs persistent questions; `to` needs
 * `then: 'inbox'` (whom it names is checked with the questions, app/addressing-check.ts).
 */
export function unansweredConfigProblem(elicitation: { unanswered?: UnansweredPolicy; persistent?: unknown }): string | undefined {
  const then = elicitation.unanswered?.then;
  if (then === 'fail' && elicitation.unanswered?.to) return "to needs then: 'inbox'";
  if (then !== 'inbox') return undefined;
  if (elicitation.persistent === undefined || elicitation.persistent === false)
    return "then: 'inbox' needs persistent questions: set elicitation.persistent (true, or { ttlMs, storage, notify })";
  return undefined;
}
