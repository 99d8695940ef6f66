// How a task's values sit in the store: sealed with the elicitation store's secret list (AES-256-GCM per storage key,
// the newest secret sealing, every listed one opening), or plain JSON without a secret, as every other record.
import { decryptJson, encryptJson } from '../../crypto';
import { isObject } from '../../protocol';

/** HKDF's `info` for task values: another purpose than questions', so the same secret gives other keys. */
const TASK_PURPOSE = 'parley task store v1';

/** The storage key is the owner of the AES key: a value moved to another key does not open. */
export async function sealTaskValue(value: unknown, storageKey: string, secret: string | undefined): Promise<string> {
  if (secret === undefined) return JSON.stringify(value);
  return JSON.stringify({ __encrypted: await encryptJson(secret, storageKey, value, TASK_PURPOSE) });
}

/** The value, or undefined when it is missing, not JSON, or not sealed under a listed secret (a plain one included). */
export async function openTaskValue<T>(raw: string | undefined, storageKey: string, secret: string | undefined): Promise<T | undefined> {
  if (raw === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const sealed = isObject(value) && Object.hasOwn(value, '__encrypted') ? value.__encrypted : undefined;
  if (secret === undefined) return sealed === undefined ? (value as T) : undefined;
  if (sealed === undefined) return undefined;
  return (await decryptJson(secret, storageKey, sealed, TASK_PURPOSE)) as T | undefined;
}
