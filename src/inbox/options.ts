// Reading `elicitation.persistent`: `true` or `{ ttlMs, storage, inboxLinks }`; anything else fails startup.
import * as z from 'zod';
import { InvalidQuestionStoreError } from '../protocol';

export type InboxLinks = 'terminal' | 'stderr' | 'off';

/** Where questions are kept; when absent, the server's own stores or the default file decide. */
export type QuestionStorage =
  | { type: 'memory' }
  | { type: 'redis'; redis?: unknown }
  | { type: 'sqlite'; sqlite?: { path?: string; [option: string]: unknown } };

export interface PersistentOptions {
  /** How long a question (and an answer nobody took) is kept, in ms. */
  ttlMs: number;
  storage?: QuestionStorage;
  inboxLinks: InboxLinks;
  /** Called when a question lands in an inbox: checked on Node with the rest of the subsystem (notify-options.ts). */
  notify?: unknown;
  /** The decision log (docs/approvals.md): on by default, kept `retentionMs`; `false` turns it off. */
  log?: false | { retentionMs?: number; clientAddress?: boolean };
}

const DEFAULT_QUESTION_TTL_MS = 24 * 60 * 60_000;

const storageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('memory') }),
  z.strictObject({ type: z.literal('redis'), redis: z.unknown().optional() }),
  z.strictObject({ type: z.literal('sqlite'), sqlite: z.looseObject({ path: z.string().min(1).optional() }).optional() }),
]);

const optionsSchema = z.strictObject({
  ttlMs: z.number().int().positive().default(DEFAULT_QUESTION_TTL_MS),
  storage: storageSchema.optional(),
  inboxLinks: z.enum(['terminal', 'stderr', 'off']).default('terminal'),
  notify: z.unknown().optional(),
  log: z
    .union([
      z.literal(false),
      z.strictObject({
        // At least a day: the export lists each day's questions in a list that must outlive the day.
        retentionMs: z.number().int().min(86_400_000, 'must be at least a day (86400000 ms)').optional(),
        clientAddress: z.boolean().optional(),
      }),
    ])
    .optional(),
});

/** The options when persistent questions are on, undefined when off; throws InvalidQuestionStoreError when invalid. */
export function readPersistentOptions(value: unknown): PersistentOptions | undefined {
  if (value === undefined || value === false) return undefined;
  const parsed = optionsSchema.safeParse(value === true ? {} : value);
  if (parsed.success) return parsed.data as PersistentOptions;
  const detail = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(persistent)'}: ${i.message}`).join('; ');
  throw new InvalidQuestionStoreError(
    `${detail}. Use \`true\` or { ttlMs?, storage?: { type: 'memory' | 'redis' | 'sqlite' }, inboxLinks?: 'terminal' | 'stderr' | 'off', notify?: function | { url, secret }, log?: false | { retentionMs?, clientAddress? } }`,
  );
}
