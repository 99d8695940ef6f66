// What the elicitation store holds: ids and times readable, the rest sealed with AES-256-GCM when a secret is set.
import { decryptJson, encryptJson } from '../crypto';
import { isObject } from '../protocol';

/** Every stored record names its session (the key is derived from it) and when it expires. */
interface StoredRecord {
  sessionId: string;
  elicitId?: string;
  createdAt: number;
  expiresAt: number;
}

const READABLE = ['sessionId', 'elicitId', 'createdAt', 'expiresAt'] as const;

export async function sealRecord(record: StoredRecord & Record<string, unknown>, secret: string | undefined): Promise<string> {
  if (secret === undefined) return JSON.stringify(record);
  const readable: Record<string, unknown> = {};
  const hidden: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) ((READABLE as readonly string[]).includes(k) ? readable : hidden)[k] = v;
  // The key is HKDF over the secret with the session id as salt: each session's records have a key of their own.
  const __encrypted = await encryptJson(secret, record.sessionId, hidden);
  return JSON.stringify({ ...readable, __encrypted });
}

type Opened<T> = { ok: true; record: StoredRecord & T } | { ok: false; reason: 'malformed' | 'undecryptable' | 'expired' };

/** Reads a record back. With a secret set, a record that is not sealed with it is refused, plain ones included. */
export async function openRecord<T>(text: string, secret: string | undefined): Promise<Opened<T>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isObject(value) || typeof value.sessionId !== 'string' || typeof value.expiresAt !== 'number')
    return { ok: false, reason: 'malformed' };
  if (value.expiresAt <= Date.now()) return { ok: false, reason: 'expired' };
  const sealed = value.__encrypted;
  if (secret === undefined)
    return sealed === undefined ? { ok: true, record: value as StoredRecord & T } : { ok: false, reason: 'undecryptable' };
  const hidden = await decryptJson(secret, value.sessionId, sealed);
  if (!isObject(hidden)) return { ok: false, reason: 'undecryptable' };
  const { __encrypted: _, ...readable } = value;
  return { ok: true, record: { ...(hidden as T), ...readable } as StoredRecord & T };
}
