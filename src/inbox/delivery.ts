// Delivery, once: the waiting call gets the answer; a call that stopped waiting leaves it to the next call of the key;
// a newer call of the same key takes over from an older one.
import type { ElicitParams, QuestionOrigin, RawAnswer, TaskLink } from '../elicitation';
import { QuestionPendingError, QuestionSupersededError } from '../protocol';
import type { QuestionStore, StoredQuestion } from './question-store';
import type { Addressing } from './addressees';

interface AskOptions {
  /** How long this call waits, in ms. */
  ttl: number;
  /** How long the question is kept, in ms (longer than ttl). */
  ttlMs: number;
  signal?: AbortSignal;
  /** How often a waiting call looks again in case a published change was missed. */
  pollMs?: number;
  /** Where the question came from, kept with it when this call files it. */
  from?: QuestionOrigin;
  /** Called when this call filed the question (it was not in the inbox yet): the nudge. */
  onCreated?: (question: StoredQuestion) => Promise<void> | void;
  /** Called as the call starts waiting for the person (not when the answer was already there). */
  onWaiting?: () => void;
  /** Whom the question is for instead of the subject (`to`), kept with it when this call files it. */
  addressed?: Addressing;
}

const DEFAULT_POLL_MS = 1000;

/**
 * Asks a persistent question for a subject and waits up to `ttl` for the inbox to answer it. An answer that came while
 * no call waited is handed to this call at once. Resolves with the raw answer, or fails with QuestionPendingError
 * (stopped waiting) or QuestionSupersededError (a newer call of the same key took over).
 */
export async function askAndWait(
  store: QuestionStore,
  subject: string,
  key: string,
  params: ElicitParams,
  options: AskOptions,
): Promise<RawAnswer> {
  let question = await store.byKey(subject, key);
  if (question) {
    const ready = await takeIfAnswered(store, subject, question);
    if (ready) return ready;
    await store.ensureListed(subject, question);
  } else {
    question = newQuestion(key, params, options.ttlMs, options.from);
    if (options.addressed) question = { ...question, addressed: options.addressed };
    await store.create(subject, question);
    await options.onCreated?.(question);
  }
  const token = crypto.randomUUID();
  const waitMs = Math.min(options.ttl, question.expiresAt - Date.now());
  // The waiter record outlives the wait a little, so a check at the very end still sees it as ours.
  await store.setWaiter(subject, question.id, token, waitMs + 5000);
  await store.publish(subject, question.id, 'waiting');
  options.onWaiting?.();
  return waitFor(store, subject, question, { token, waitMs }, options);
}

/** A question to file under a key, kept for ttlMs (standing for a task's question when `task` names one). */
export function newQuestion(key: string, params: ElicitParams, ttlMs: number, from?: QuestionOrigin, task?: TaskLink): StoredQuestion {
  const now = Date.now();
  const question: StoredQuestion = {
    id: crypto.randomUUID(),
    key,
    message: params.message,
    requestedSchema: params.requestedSchema ?? { type: 'object', properties: {} },
    createdAt: now,
    expiresAt: now + ttlMs,
  };
  return { ...question, ...(from ? { from } : {}), ...(task ? { task } : {}) };
}

/** The answer to a question if one waits (taken: no other call gets it), and the question then goes. */
export async function takeIfAnswered(store: QuestionStore, subject: string, question: StoredQuestion): Promise<RawAnswer | undefined> {
  const answer = await store.takeAnswer(subject, question.id);
  if (!answer) return undefined;
  await store.finish(subject, question);
  const { action, content, decisions, reason } = answer;
  return { action, content, ...(decisions ? { decisions } : {}), ...(reason ? { reason } : {}) };
}

/** Waits up to `waitMs` for the answer to a question this call holds the waiter `token` of. */
function waitFor(
  store: QuestionStore,
  subject: string,
  question: StoredQuestion,
  { token, waitMs }: { token: string; waitMs: number },
  options: AskOptions,
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    let checking: Promise<void> | undefined;
    let again = false;
    let unsubscribe: (() => Promise<void>) | undefined;
    const cleanup = () => {
      settled = true;
      clearTimeout(deadline);
      clearInterval(poll);
      options.signal?.removeEventListener('abort', onAbort);
      void unsubscribe?.().catch(() => {});
    };
    const settle = (fn: () => void) => {
      if (settled) return;
      cleanup();
      fn();
    };
    // One check at a time; a change during a check runs one more.
    const check = (): void => {
      if (settled) return;
      if (checking) {
        again = true;
        return;
      }
      checking = (async () => {
        const current = await store.waiter(subject, question.id);
        if (current !== undefined && current !== token) return settle(() => reject(new QuestionSupersededError(question.key)));
        const answer = await takeIfAnswered(store, subject, question);
        if (answer) settle(() => resolve(answer));
      })()
        .catch((error: unknown) => settle(() => reject(error)))
        .finally(() => {
          checking = undefined;
          if (again && !settled) {
            again = false;
            check();
          }
        });
    };
    // Stopping: one last look (an answer that just came is still delivered), then leave the answer to the next call.
    const stop = () => {
      if (settled) return;
      void (async () => {
        while (checking) await checking;
        if (settled) return;
        const current = await store.waiter(subject, question.id);
        if (current === undefined || current === token) {
          const answer = await takeIfAnswered(store, subject, question);
          if (answer) return settle(() => resolve(answer));
          await store.clearWaiter(subject, question.id, token);
          await store.publish(subject, question.id, 'stopped');
          return settle(() => reject(new QuestionPendingError(question.key)));
        }
        settle(() => reject(new QuestionSupersededError(question.key)));
      })().catch((error: unknown) => settle(() => reject(error)));
    };
    const onAbort = () => stop();
    const deadline = setTimeout(stop, Math.max(0, waitMs));
    const poll = setInterval(check, options.pollMs ?? DEFAULT_POLL_MS);
    if (options.signal?.aborted) return stop();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    void store
      .questionChannel(subject, question.id)
      // Listening, then a look (an answer kept before), and a look each time the store's connection is back.
      .then((channel) => store.records.wait(channel, check, check))
      .then((off) => {
        if (settled) void off().catch(() => {});
        else unsubscribe = off;
      })
      .catch((error: unknown) => settle(() => reject(error)));
  });
}
