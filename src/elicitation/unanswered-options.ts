// Reading the unanswered-question policy: `elicitation.unanswered` server-wide, `unanswered` per elicit() call.
import * as z from 'zod';
import { InvalidInputError } from '../server/errors';

/** What becomes of a question the client does not answer: it moves to the caller's inbox, or the call fails. */
export type UnansweredThen = 'inbox' | 'fail';

export interface UnansweredPolicy {
  /** How long a client that declared elicitation has to answer before the question moves (before 2026-07-28). */
  afterMs: number;
  then: UnansweredThen;
}

/** Why a question is in the inbox (the inbox page, the hooks and the webhook say it in these words). */
export type InboxReason = 'persist' | 'client-never-answered' | 'client-cannot-show-forms' | 'filed-with-round';

/** The reasons in words, for the access log and the tool result. */
export const INBOX_REASONS: Readonly<Record<InboxReason, string>> = {
  persist: 'the tool keeps this question until it is answered',
  'client-never-answered': 'the client never answered it',
  'client-cannot-show-forms': 'the client cannot show forms',
  'filed-with-round': 'asked in the client and in the inbox at once; the first answer counts',
};

export const DEFAULT_AFTER_MS = 30_000;

const policy = z.strictObject({
  afterMs: z.number().int().positive().default(DEFAULT_AFTER_MS),
  then: z.enum(['inbox', 'fail']),
});

/** `elicitation.unanswered` in the server's config: `{ afterMs?, then: 'inbox' | 'fail' }`. */
export const unansweredSchema = policy;

/** The per-call option: a partial policy over the server's, or `false` to leave this question to the client alone. */
export type UnansweredOption = false | { afterMs?: number; then?: UnansweredThen };

const perCall = z.union([z.literal(false), z.strictObject({ afterMs: z.number().int().positive().optional(), then: z.enum(['inbox', 'fail']).optional() })]);

/** The policy one question follows: the call's option over the server's; undefined when none applies. */
export function policyFor(server: UnansweredPolicy | undefined, option: unknown): UnansweredPolicy | undefined {
  if (option === undefined) return server;
  const parsed = perCall.safeParse(option);
  if (!parsed.success)
    throw new InvalidInputError(`unanswered must be false or { afterMs?: positive integer ms, then?: 'inbox' | 'fail' }: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'unanswered'}: ${i.message}`).join('; ')}`);
  if (parsed.data === false) return undefined;
  const then = parsed.data.then ?? server?.then;
  if (!then) throw new InvalidInputError("unanswered needs then: 'inbox' | 'fail' (the server sets no elicitation.unanswered)");
  return { afterMs: parsed.data.afterMs ?? server?.afterMs ?? DEFAULT_AFTER_MS, then };
}

/** A startup check across options: moving questions to the inbox needs persistent questions. */
export function unansweredConfigProblem(elicitation: { unanswered?: UnansweredPolicy; persistent?: unknown }): string | undefined {
  if (elicitation.unanswered?.then !== 'inbox') return undefined;
  if (elicitation.persistent === undefined || elicitation.persistent === false)
    return "elicitation.unanswered: then: 'inbox' needs persistent questions: set elicitation.persistent (true, or { ttlMs, storage, notify })";
  return undefined;
}
