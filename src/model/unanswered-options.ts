// The unanswered-question policy's options: `elicitation.unanswered` server-wide (checked with the config), its types,
// the rest is read where the policy runs (unanswered-policy.ts, Node only).
import * as z from 'zod';
import type { Addressee, AddressingOptions } from './addressee';

/** What becomes of a question the client does not answer: it moves to the caller's inbox, or the call fails. */
type UnansweredThen = 'inbox' | 'fail';

export interface UnansweredPolicy {
  /**
   * How long a client that declared elicitation has to answer: before 2026-07-28, before the question moves to the
   * inbox; on 2026-07-28 (filed with the round), before `persistent.notify` nudges the person.
   */
  afterMs: number;
  then: UnansweredThen;
  /**
   * With `then: 'inbox'`: whom the question moves to instead of the caller (docs/approvals.md), with `quorum` and
   * `declines` as elicit() takes them. Checked at startup (server-wide) or when the question moves (a call's own).
   */
  to?: Addressee[];
  quorum?: number;
  declines?: number;
}

export type { InboxReason } from '../protocol';

export const DEFAULT_AFTER_MS = 30_000;

/** `elicitation.unanswered` in the server's config: `{ afterMs?, then: 'inbox' | 'fail' }`. */
/**
 * `to`, `quorum` and `declines` in a policy (the server's and a call's): their shape only. Whom they name is checked
 * where questions are (app/addressing-check.ts, inbox/addressees.ts), so a bundle without questions carries no check.
 */
export const ADDRESSING_FIELDS = {
  to: z.array(z.custom<Addressee>()).optional(),
  quorum: z.number().optional(),
  declines: z.number().optional(),
};

export const unansweredSchema = z.strictObject({
  afterMs: z.number().int().positive().default(DEFAULT_AFTER_MS),
  then: z.enum(['inbox', 'fail']),
  ...ADDRESSING_FIELDS,
});

/** The per-call option: a partial policy over the server's, or `false` to leave this question to the client alone. */
export type UnansweredOption = false | ({ afterMs?: number; then?: UnansweredThen } & AddressingOptions);
