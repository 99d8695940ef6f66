// 2026-07-28 under the unanswered-question policy: a question filed in the inbox beside its round, and the client's
// answer claiming it. Of the client and the inbox, the one that takes the question's open token answers it.
import type { ElicitParams, QuestionOrigin, RawAnswer, TaskLink } from '../elicitation';
import type { Addressing } from './addressees';
import { newQuestion, takeIfAnswered } from './delivery';
import type { QuestionStore, StoredQuestion } from './question-store';

/** Files the question under its key unless it is there already; gives its id, and its answer if one waited (taken). */
export async function fileQuestion(
  store: QuestionStore,
  subject: string,
  key: string,
  params: ElicitParams,
  kept: {
    ttlMs: number;
    from: QuestionOrigin;
    task?: TaskLink;
    /** Whom the question is for instead of the subject (the unanswered policy's `to`). */
    addressed?: Addressing;
    onCreated?: (question: StoredQuestion) => Promise<void> | void;
  },
): Promise<{ id: string; created: boolean; answer?: RawAnswer }> {
  const existing = await store.byKey(subject, key);
  if (existing) {
    const answer = await takeIfAnswered(store, subject, existing);
    if (answer) return { id: existing.id, created: false, answer };
    await store.ensureListed(subject, existing);
    return { id: existing.id, created: false };
  }
  const fresh = newQuestion(key, params, kept.ttlMs, kept.from, kept.task);
  const question = kept.addressed ? { ...fresh, addressed: kept.addressed } : fresh;
  await store.create(subject, question);
  await store.publish(subject, question.id, 'filed'); // an open inbox shows it now, not at its next refresh
  await kept.onCreated?.(question);
  return { id: question.id, created: true };
}

/**
 * A client's answer claims a question. The inbox's answer route takes the same open token (`o`), with the backend's
 * atomic take (GETDEL on Redis, an IMMEDIATE transaction on SQLite, one synchronous delete in memory), so of the two
 * exactly one wins, across instances. `claimed`: the client's answer counts and the question leaves the inbox (a late
 * inbox answer gets 409). Else the inbox's answer if it waits (taken, so no other call gets it), else `gone`: answered
 * and delivered, or expired.
 */
export async function claimQuestion(
  store: QuestionStore,
  subject: string,
  id: string,
  onClaimed?: (question: StoredQuestion) => Promise<void>,
): Promise<'claimed' | 'gone' | RawAnswer> {
  const question = await store.byId(subject, id);
  if (!question) return 'gone';
  if (await store.takeOpen(subject, id)) {
    await store.finish(subject, question, true);
    await onClaimed?.(question);
    return 'claimed';
  }
  return (await takeIfAnswered(store, subject, question)) ?? 'gone';
}
