// What the elicitation store holds: ids and times readable, the rest sealed with AES-256-GCM when a secret is set.
import { aesOpen, aesSeal, deriveAesKey, fromUtf8, utf8, type AesSealed } from '../crypto';
import { isObject } from '../protocol';

/** Every stored record names its session (the key is derived from it) and when it expires. */
export interface StoredRecord {
  sessionId: string;
  elicitId?: string;
  createdAt: number;
  expiresAt: number;
}

const READABLE = ['sessionId', 'elicitId', 'createdAt', 'expiresAt'] as const;
const INFO = 'parley elicitation store v1';

// HKDF over the secret with the session id as salt: each session's records have a key of their own.
const keyFor = (secret: string, sessionId: string) => deriveAesKey(secret, sessionId, INFO);

export async function sealRecord(record: StoredRecord & Record<string, unknown>, secret: string | undefined): Promise<string> {
  if (secret === undefined) return JSON.stringify(record);
  const readable: Record<string, unknown> = {};
  const hidden: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) ((READABLE as readonly string[]).includes(k) ? readable : hidden)[k] = v;
  const __encrypted = await aesSeal(await keyFor(secret, record.sessionId), utf8(JSON.stringify(hidden)));
  return JSON.stringify({ ...readable, __encrypted });
}

export type Opened<T> = { ok: true; record: StoredRecord & T } | { ok: false; reason: 'malformed' | 'undecryptable' | 'expired' };

/** Reads a record back. With a secret set, a record that is not sealed with it is refused, plain ones included. */
export async function openRecord<T>(text: string, secret: string | undefined): Promise<Opened<T>> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (!isObject(value) || typeof value.sessionId !== 'string' || typeof value.expiresAt !== 'number') return { ok: false, reason: 'malformed' };
  if (value.expiresAt <= Date.now()) return { ok: false, reason: 'expired' };
  const sealed = value.__encrypted;
  if (secret === undefined) return sealed === undefined ? { ok: true, record: value as StoredRecord & T } : { ok: false, reason: 'undecryptable' };
  if (!isObject(sealed)) return { ok: false, reason: 'undecryptable' };
  const plain = await aesOpen(await keyFor(secret, value.sessionId), sealed as unknown as AesSealed);
  if (!plain) return { ok: false, reason: 'undecryptable' };
  const { __encrypted: _, ...readable } = value;
  try {
    return { ok: true, record: { ...(JSON.parse(fromUtf8(plain)) as T), ...readable } as StoredRecord & T };
  } catch {
    return { ok: false, reason: 'malformed' };
  }
}
