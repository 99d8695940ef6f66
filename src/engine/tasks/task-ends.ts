// A task's end, written once: of the work finishing, a cancel and a lapsed lease, on any instances, the first to take
// the live token sets it. What the store keeps of an ended task (its end, its record without what its runs needed)
// counts against the caller's and the process's bounds on ended tasks, and those past them are forgotten here.
import { isObject } from '../../protocol';
import type { TaskEvent } from './task-events';
import type { TaskLedger } from './task-ledger';
import { type TaskLimits, tooLarge } from './task-limits';
import type { OwnerIndex } from './task-owners';
import type { TaskPart, TaskParts } from './task-parts';
import { leftOf } from '../../stores';
import type { TaskEnd, TaskRecord } from './task-record';
import type { StretchTokens } from './task-stretch';

/** An end as stored: the end and when it happened. */
type StoredEnd = TaskEnd & { at: number };

/** What the ends work with: the task store's parts, bounds and counts, and how it reads a record and publishes. */
interface EndsOf {
  parts: TaskParts;
  limits: TaskLimits;
  tokens: StretchTokens;
  owners: OwnerIndex;
  ledger: TaskLedger;
  raw(taskId: string): Promise<TaskRecord | undefined>;
  publish(taskId: string, event: TaskEvent): Promise<void>;
}

export class TaskEnds {
  constructor(private readonly of: EndsOf) {}

  /** The task's end, once it has one. */
  async read(taskId: string): Promise<StoredEnd | undefined> {
    const end = await this.of.parts.read<StoredEnd>(taskId, 'e');
    return isObject(end) ? end : undefined;
  }

  /**
   * Ends the task with `end` unless something ended it first (then false, nothing changed): its end is sealed (a
   * result past tasks.ended.maxBytesPerCaller ends it failed, saying so), its record keeps no arguments or steps, its
   * tokens and open questions go, its channel hears the end, and the oldest ended tasks past the bounds are forgotten.
   */
  async once(record: TaskRecord, end: TaskEnd): Promise<boolean> {
    const { parts, limits, tokens, owners, ledger } = this.of;
    const { taskId } = record;
    if (!(await parts.claim(taskId, 'l'))) return false;
    const ttl = leftOf(record);
    const { records } = parts;
    const name = await records.name('task', taskId, 'e');
    // What the store keeps for it from now on: its end and its record (the record's size is about its JSON's).
    const recordBytes = JSON.stringify(record).length;
    const max = limits.ended.maxBytesPerCaller;
    let final = end;
    let sealed = await records.sealing.seal({ ...final, at: Date.now() }, taskId, name);
    if (sealed.length + recordBytes > max) {
      final = tooLarge(sealed.length + recordBytes, max);
      sealed = await records.sealing.seal({ ...final, at: Date.now() }, taskId, name);
    }
    // The caller's index hears of the end before any reader can see it: a caller who sees the task ended and at once
    // starts another (on any instance) finds its place free, not taken by this task until the index catches up.
    const bytes = sealed.length + recordBytes;
    const index = record.index ?? (await parts.owner(record.owner));
    const forget = [...(await owners.ended(index, taskId, bytes)), ...ledger.ended(taskId, bytes, Date.now() + ttl)];
    await records.backend.set(name, sealed, ttl);
    // Its thread ends: its open questions close. What its runs needed (its arguments, caller, steps, the answers
    // they took in) was for them: an ended task keeps none of it.
    const { steps: _steps, run: _run, answers: _answers, ...rest } = await parts.threads.close(taskId, '', record);
    await tokens.ended(taskId);
    await parts.threads.write(taskId, '', rest);
    await this.of.publish(taskId, { kind: 'end', status: final.status });
    await Promise.all(forget.map((id) => this.#forget(id)));
    return true;
  }

  /** An ended task past the bounds on those kept: every part of it leaves the store (a tasks/get finds it no more). */
  async #forget(taskId: string): Promise<void> {
    const { parts } = this.of;
    const record = await this.of.raw(taskId);
    const own: TaskPart[] = ['e', 'l', 'w', 'p', 's'];
    await Promise.all([parts.threads.drop(taskId, '', record), ...own.map((part) => parts.drop(taskId, part))]);
  }
}
