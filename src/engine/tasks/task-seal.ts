// How a task's values sit in the store: sealed with the elicitation store's secret list (AES-256-GCM per storage key,
// the newest secret sealing, every listed one opening), or plain JSON without a secret, as every other record.
import type { StoreCrypto } from '../../crypto';
import { isObject } from '../../protocol';

/** HKDF's `info` for task values: another purpose than questions', so the same secret gives other keys. */
const TASK_PURPOSE = 'parley task store v1';

/** Seals and opens task values under one secret setting, with WebCrypto or the runtime's own (the same records). */
export class TaskSeal {
  constructor(
    private readonly secret: string | undefined,
    private readonly crypto: StoreCrypto,
  ) {}

  /** The storage key is the owner of the AES key: a value moved to another key does not open. */
  async seal(value: unknown, storageKey: string): Promise<string> {
    if (this.secret === undefined) return JSON.stringify(value);
    return JSON.stringify({ __encrypted: await this.crypto.seal(this.secret, storageKey, value, TASK_PURPOSE) });
  }

  /** The value, or undefined when it is missing, not JSON, or not sealed under a listed secret (a plain one included). */
  async open<T>(raw: string | undefined, storageKey: string): Promise<T | undefined> {
    if (raw === undefined) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
    const sealed = isObject(value) && Object.hasOwn(value, '__encrypted') ? value.__encrypted : undefined;
    if (this.secret === undefined) return sealed === undefined ? (value as T) : undefined;
    if (sealed === undefined) return undefined;
    return (await this.crypto.open(this.secret, storageKey, sealed, TASK_PURPOSE)) as T | undefined;
  }
}
