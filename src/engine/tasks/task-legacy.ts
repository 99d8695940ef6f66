// Tasks as releases before the question store kept them (until 2026-12-06): names `task:<SHA-256 of the id>:<part>`
// (a question's parts add `:<SHA-256 of its key>`), values `{"__encrypted": …}` sealed per storage key. A task lives at
// most its ttlMs (tasks.ttlMs, a day by default): this read-only fallback can go once every deployment has run this
// release for longer than its tasks.ttlMs (a release after 2027-01-06 may delete it, with TaskParts' `legacy` use).
import { type StoreCrypto, WEB_STORE_CRYPTO } from '../../crypto';
import { isObject } from '../../protocol';
import { isThread, type LegacyRecords } from '../../stores';
import type { TaskRecord } from './task-record';

/** HKDF's `info` of those values. */
const TASK_PURPOSE = 'parley task store v1';

/** `keyed`: whether a task has all its parts under the question store's names (none under a legacy name to look for). */
export function legacyTaskRecords(
  home: { keyPrefix: string; secret?: string | undefined },
  crypto: StoreCrypto = WEB_STORE_CRYPTO,
  keyed: (taskId: string) => boolean = () => false,
): LegacyRecords {
  const { keyPrefix, secret } = home;
  // The digests of the tasks looked up last: a miss under the new names looks here on every poll.
  const ids = new Map<string, string | Promise<string>>();
  const idOf = (taskId: string) => {
    let id = ids.get(taskId);
    if (id === undefined) {
      if (ids.size >= 1_024) ids.delete(ids.keys().next().value!);
      id = crypto.digest(`task\u0000${taskId}`);
      ids.set(taskId, id);
    }
    return id;
  };
  const legacyName = async (taskId: string, part: string) => {
    const [which, key] = part.split('\u0000');
    const id = await idOf(taskId);
    return `${keyPrefix}task:${id}:${which}${key === undefined ? '' : `:${await crypto.digest(key)}`}`;
  };
  return {
    name(kind, owner, part) {
      if (kind !== 'task' || part === 'channel' || keyed(owner)) return undefined;
      return legacyName(owner, part);
    },
    async open(raw, _owner, key) {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return undefined;
      }
      const sealed = isObject(value) && Object.hasOwn(value, '__encrypted') ? value.__encrypted : undefined;
      if (secret === undefined) return sealed === undefined ? value : undefined;
      return sealed === undefined ? undefined : crypto.open(secret, key, sealed, TASK_PURPOSE);
    },
  };
}

/**
 * A task's record as the store holds it: a thread (this release's), or a record of the releases before threads (until
 * 2026-12-06: `inputRequests` for its open questions, no status or expiresAt), read as the thread it is. That shape can
 * go with the names above, once every deployment has run this release for longer than its tasks.ttlMs.
 */
export function taskRecordOf(value: unknown): TaskRecord | undefined {
  if (isThread(value)) return value as TaskRecord;
  if (!isObject(value) || !Array.isArray(value.inputRequests) || !Array.isArray(value.asked)) return undefined;
  const { inputRequests, ...rest } = value as unknown as Omit<TaskRecord, 'questions' | 'status' | 'expiresAt'> & {
    inputRequests: TaskRecord['questions'];
  };
  const { createdAt, ttlMs } = rest;
  return { ...rest, questions: inputRequests, status: inputRequests.length > 0 ? 'waiting' : 'answered', expiresAt: createdAt + ttlMs };
}
