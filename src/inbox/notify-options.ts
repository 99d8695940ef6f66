// Reading `persistent.notify`: a function, or a webhook `{ url, secret, includeLink?, actionLinks?, attempts?, timeoutMs?,
// backoffMs? }`.
import * as z from 'zod';
import type { QuestionOrigin } from '../elicitation';
import { InvalidQuestionStoreError } from '../protocol';
import { configIssues } from '../model';
import { standardWebhookKey } from './standard-webhooks';
import type { Addressing } from './addressees';
import type { Addressee } from '../model';

/** Links that answer from the nudge: accept and decline for a yes/no form, else one to the question in the inbox. */
export type ActionLinkAnswers = { accept: string; decline: string } | { form: string };

/**
 * What the nudge says about a question that landed in an inbox: never a sign-in code unless asked for. `type` is
 * `question.escalated` for the nudge of an addressed question's escalation (`escalated` says to whom).
 */
export interface InboxNotice {
  type: 'question.filed' | 'question.escalated';
  /** The server's name (`info.name`). */
  server: string;
  questionId: string;
  /** The signed-in caller's subject, `principal:<iss>#<sub>`; absent for a session (its id is a credential). */
  principal?: string;
  message: string;
  from?: QuestionOrigin;
  /**
   * Whom a question addressed with `to` is for, and how many must accept: relay the notice to them. It carries no
   * inbox or action link (they answer in the inbox, signed in at the provider).
   */
  addressed?: Addressing;
  /** The latest escalation step in force: since when (ms), and whom it added: relay the notice to them. */
  escalated?: { at: number; to: Addressee[] };
  createdAt: number;
  expiresAt: number;
  /** A one-time sign-in link to the inbox: only with `includeLink: true` (whoever reads it can answer). */
  link?: string;
  /** Signed, expiring links that answer (single use) or open the question: with `actionLinks` on (the webhook's default). */
  actions?: ActionLinkAnswers & { expiresAt: number };
}

/** A function given the notice, and a way to make a one-time inbox link when the app sends it itself. */
export type NotifyFunction = (notice: InboxNotice, tools: { createLink?: () => Promise<string> }) => void | Promise<void>;

/**
 * Who an action link answers for: `signed-in` (the question's owner, signed in to the inbox) or `possession` (whoever
 * holds the link: weaker, a forwarded message answers); `off` sends none.
 */
export type ActionLinkAccess = 'signed-in' | 'possession' | 'off';

export interface WebhookOptions {
  url: string;
  /**
   * Signs each POST: Parley's `parley-signature` under the secret as written, and Standard Webhooks' `webhook-signature`
   * under its key (`whsec_` + base64, or else the secret's UTF-8 bytes); redacted from logs like every secret.
   */
  secret: string;
  includeLink: boolean;
  /** Action links in the body; absent until the server decides (`signed-in` with people auth, else `off`). */
  actionLinks?: ActionLinkAccess;
  /** The longest an action link lives, in ms (it never outlives its question); default 24 hours. */
  actionLinkMaxAgeMs: number;
  attempts: number;
  timeoutMs: number;
  /** The first retry's delay in ms, doubled for each one after. */
  backoffMs: number;
}

export type NotifyOption = NotifyFunction | WebhookOptions;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

const webhook = z.strictObject({
  url: z.url().refine((u) => {
    const url = new URL(u);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  }, 'must be https (plain http only to a loopback receiver)'),
  secret: z
    .string()
    .min(16, 'must be at least 16 characters')
    .refine((s) => standardWebhookKey(s) !== undefined, 'a whsec_ secret must be whsec_ and the base64 of 24 to 64 bytes'),
  includeLink: z.boolean().default(false),
  actionLinks: z.enum(['signed-in', 'possession', 'off']).optional(),
  actionLinkMaxAgeMs: z
    .number()
    .int()
    .positive()
    .default(24 * 60 * 60_000),
  attempts: z.number().int().min(1).max(10).default(4),
  timeoutMs: z.number().int().positive().default(5000),
  backoffMs: z.number().int().positive().default(500),
});

const notifySchema = z.union([z.custom<NotifyFunction>((v) => typeof v === 'function', 'expected a function'), webhook], {
  error: 'expected a function, or { url, secret, includeLink?, actionLinks?, actionLinkMaxAgeMs?, attempts?, timeoutMs?, backoffMs? }',
});

/** `persistent.notify` checked, undefined when unset; throws InvalidQuestionStoreError naming what is wrong. */
export function readNotifyOption(value: unknown): NotifyOption | undefined {
  if (value === undefined) return undefined;
  const parsed = notifySchema.safeParse(value);
  if (parsed.success) return parsed.data as NotifyOption;
  throw new InvalidQuestionStoreError(configIssues(parsed.error.issues, ['notify']).join('; '));
}
