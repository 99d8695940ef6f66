// The question side of a task, its thread in the question store (stores/questions/thread.ts): each question's open
// token (the first answer takes it, on any instance, so exactly one answer is kept), the answers kept under their
// question's key until the work takes them in, and the questions still open. The task store (task-store.ts) keeps the
// record, the lease and the end around it.
import type { TaskParts } from './task-parts';
import type { InputRequest, TaskRecord } from './task-record';

/** The ms a task has left to live (at least 1: a store's TTL must be positive). */
export const leftOf = (record: Pick<TaskRecord, 'createdAt' | 'ttlMs'>): number =>
  Math.max(1, record.createdAt + record.ttlMs - Date.now());

export class TaskAnswers {
  constructor(private readonly parts: TaskParts) {}

  /**
   * New questions open: each one's token is stored, then the record (returned) lists them, so the task is
   * `input_required` until every one is answered. A key already asked in this task's life is a programming error.
   */
  asking(record: TaskRecord, questions: [string, InputRequest][]): Promise<TaskRecord> {
    return this.parts.threads.ask(record.taskId, '', record, questions);
  }

  /** Keeps the first answer to each open question of `responses` (the thread's claim); resolves with their keys. */
  async take(record: TaskRecord, responses: Record<string, unknown>): Promise<string[]> {
    const open = new Map(record.questions);
    const ttl = leftOf(record);
    const taken: string[] = [];
    for (const key of Object.keys(responses)) {
      if (open.has(key) && (await this.parts.threads.answer(record.taskId, '', key, responses[key], ttl))) taken.push(key);
    }
    return taken;
  }

  /** The answers to the given keys: those the record took in (when given), then those kept under their questions. */
  read(taskId: string, keys: readonly string[], record?: TaskRecord): Promise<Map<string, unknown>> {
    return this.parts.threads.answers(taskId, '', record, keys);
  }

  /** Questions asked and still open: their open token is in the store (an answer took it otherwise). */
  outstanding(record: TaskRecord): Promise<[string, InputRequest][]> {
    return this.parts.threads.waiting(record.taskId, '', record);
  }

  /** The task ended: its open questions close with it (a late answer is ignored, as an unknown key is). */
  close(record: TaskRecord): Promise<TaskRecord> {
    return this.parts.threads.close(record.taskId, '', record);
  }
}
