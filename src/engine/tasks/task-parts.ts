// Where a task's parts sit in the store: the question store's records (stores/questions), kind `task`, owner the task
// id, so every name is a keyed HMAC (a SHA-256 without a secret) and every value is sealed with the task id's key, the
// storage key as additional data. Reading the store gives out no bearer id, owner or question.
import type { StoreCrypto } from '../../crypto';
import { QuestionKeys, QuestionRecords, QuestionSeal, QuestionThreads, type ElicitationStore, type ThreadLayout } from '../../stores';
import { legacyTaskRecords } from './task-legacy';

/**
 * A task's stored parts: the record, the live token, the work's lease, the end, a question's open token, its answer,
 * the claim token of a work that ended at a question (the first answer's instance takes it and replays the work), and
 * the stretch token of work running between questions (whoever finds its lease lapsed takes it and resumes the work).
 */
export type TaskPart = 'r' | 'l' | 'w' | 'e' | 'q' | 'a' | 'p' | 's';

/** Where tasks are kept: the elicitation store's backend, key prefix and secret (the same keys as every record). */
export type TaskHome = Pick<ElicitationStore, 'backend' | 'keyPrefix' | 'secret'>;

const KIND = 'task';
/** How many tasks known to have every part under the question store's names are kept in mind. */
const KEPT_KEYED = 4_096;
/** A part of one task; a question's parts add its key. */
const partOf = (part: TaskPart, key?: string): string => (key === undefined ? part : `${part}\u0000${key}`);

/** A task's thread (its record `r`, each question's open token `q` and answer `a`), the task id its scope. */
const RECORD = [KIND, 'r'] as const;
const TASK_THREAD: ThreadLayout = {
  record: () => RECORD,
  open: (_, key) => [KIND, partOf('q', key)],
  answer: (_, key) => [KIND, partOf('a', key)],
};

/**
 * Names (prefix `task:`): each part of a task (`r` the record, `l` the live token an end takes, `w` the work's lease,
 * `e` the end, `q`+key a question's open token the first answer takes, `a`+key its answer, `p` the claim token of
 * parked work, `s` the stretch token of running work) and its channel; `task-owner:` a caller's index (an anonymous
 * caller's by its address); `task-session:` a 2025-11-25 session's channel.
 */
export class TaskParts {
  readonly records: QuestionRecords;
  /** The task's thread: its record, questions and answers (scope the task id; a thread id it needs none). */
  readonly threads: QuestionThreads;
  // Tasks seen with every part under the question store's names (TaskRecord.keyed): no read looks under a legacy name.
  readonly #keyed = new Set<string>();

  constructor(home: TaskHome, crypto?: StoreCrypto) {
    const keys = new QuestionKeys(home.keyPrefix, home.secret, crypto);
    const sealing = new QuestionSeal(home.secret, crypto);
    const legacy = legacyTaskRecords(home, crypto, (taskId) => this.#keyed.has(taskId));
    this.records = new QuestionRecords(home.backend, keys, sealing, legacy);
    this.threads = new QuestionThreads(this.records, TASK_THREAD);
  }

  /** The task's record says every part of it is under the question store's names (it was created so). */
  keyed(taskId: string): void {
    if (this.#keyed.has(taskId)) return;
    if (this.#keyed.size >= KEPT_KEYED) this.#keyed.delete(this.#keyed.values().next().value!);
    this.#keyed.add(taskId);
  }

  put(taskId: string, part: TaskPart, value: unknown, ttlMs: number, key?: string): Promise<string> {
    return this.records.put(KIND, taskId, partOf(part, key), value, ttlMs);
  }

  mark(taskId: string, part: TaskPart, ttlMs: number, key?: string): Promise<void> {
    return this.records.mark(KIND, taskId, partOf(part, key), ttlMs);
  }

  read<T>(taskId: string, part: TaskPart, key?: string): Promise<T | undefined> {
    return this.records.read<T>(KIND, taskId, partOf(part, key));
  }

  has(taskId: string, part: TaskPart, key?: string): Promise<boolean> {
    return this.records.has(KIND, taskId, partOf(part, key));
  }

  /** Takes the part's token: of every caller on every instance, exactly one gets true. */
  claim(taskId: string, part: TaskPart, key?: string): Promise<boolean> {
    return this.records.claim(KIND, taskId, partOf(part, key));
  }

  drop(taskId: string, part: TaskPart, key?: string): Promise<void> {
    return this.records.drop(KIND, taskId, partOf(part, key));
  }

  channel(taskId: string): Promise<string> {
    return this.records.name(KIND, taskId, 'channel');
  }

  /** A 2025-11-25 session's channel, where new tasks of the session are announced. */
  session(sessionId: string): Promise<string> {
    return this.records.name('task-session', sessionId);
  }

  /** A caller's index: its owner's, or for an anonymous caller its address's (all anonymous callers of no known address share one). */
  owner(owner: string | undefined, address?: string): Promise<string> {
    const who = owner === undefined ? ['anonymous', address ?? null] : ['owner', owner];
    return this.records.name('task-owner', JSON.stringify(who));
  }

  /** A value under a name of its own (an index, a channel's message): the name is its owner and its additional data. */
  sealAt(value: unknown, name: string): Promise<string> {
    return this.records.sealing.seal(value, name, name);
  }

  openAt<T>(raw: string | undefined, name: string): Promise<T | undefined> {
    return this.records.open<T>(raw === undefined ? undefined : { key: name, raw, ...legacyFormat(raw) }, name);
  }
}

/** A caller's index written before the question store (JSON holding `__encrypted`, or plain JSON): task-legacy.ts's. */
const legacyFormat = (raw: string): { legacy?: true } => (raw.startsWith('{"__encrypted"') ? { legacy: true } : {});
