// The answer side of a task in the store: each question's open token (the first answer takes it, on any instance, so
// exactly one answer is kept), the answers kept under their question's key, and the questions still open. The task
// store (task-store.ts) keeps the record, the lease and the end around it.
import type { TaskParts } from './task-parts';
import type { InputRequest, TaskRecord } from './task-record';

/** The ms a task has left to live (at least 1: a store's TTL must be positive). */
export const leftOf = (record: Pick<TaskRecord, 'createdAt' | 'ttlMs'>): number =>
  Math.max(1, record.createdAt + record.ttlMs - Date.now());

export class TaskAnswers {
  constructor(private readonly parts: TaskParts) {}

  /**
   * New questions open: each one's token is stored, then the record (returned) lists it, so the task is
   * `input_required` until every one is answered. A key already asked in this task's life is a programming error.
   */
  async asking(record: TaskRecord, questions: [string, InputRequest][]): Promise<TaskRecord> {
    const asked = new Set(record.asked);
    for (const [key] of questions) {
      if (asked.has(key)) throw new Error(`Task question key ${JSON.stringify(key)} was already asked in this task`);
      asked.add(key);
    }
    const ttl = leftOf(record);
    await Promise.all(questions.map(([key]) => this.parts.mark(record.taskId, 'q', ttl, key)));
    return {
      ...record,
      inputRequests: [...record.inputRequests, ...questions],
      asked: [...record.asked, ...questions.map(([key]) => key)],
    };
  }

  /** Keeps the first answer to each open question of `responses` (the question store's claim); resolves with their keys. */
  async take(record: TaskRecord, responses: Record<string, unknown>): Promise<string[]> {
    const open = new Map(record.inputRequests);
    const ttl = leftOf(record);
    const taken: string[] = [];
    for (const key of Object.keys(responses)) {
      if (!open.has(key)) continue;
      if (!(await this.parts.claim(record.taskId, 'q', key))) continue;
      await this.parts.put(record.taskId, 'a', responses[key], ttl, key);
      taken.push(key);
    }
    return taken;
  }

  /** The answers stored for the given keys. */
  async read(taskId: string, keys: readonly string[]): Promise<Map<string, unknown>> {
    const found = await Promise.all(keys.map(async (key): Promise<[string, unknown]> => [key, await this.parts.read(taskId, 'a', key)]));
    return new Map(found.filter(([, value]) => value !== undefined));
  }

  /** Questions asked and still open: their open token is in the store (an answer took it otherwise). */
  async outstanding(record: TaskRecord): Promise<[string, InputRequest][]> {
    const open = await Promise.all(record.inputRequests.map(([key]) => this.parts.has(record.taskId, 'q', key)));
    return record.inputRequests.filter((_, i) => open[i]);
  }

  /** The task ended: its open questions close with it (a late answer is ignored, as an unknown key is). */
  async close(record: TaskRecord): Promise<void> {
    await Promise.all(record.inputRequests.map(([key]) => this.parts.drop(record.taskId, 'q', key)));
  }
}
