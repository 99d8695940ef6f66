// The signed requestState of 2026-07-28 rounds: the answers so far, bound to caller, request and expiry.
// Its text is `<payload JSON>.<HMAC-SHA256 of that JSON, base64url>`: the client echoes it, and nothing in it is read
// before the signature checks. (Encoding the JSON again, as base64url, would hide nothing and cost every round.)
import { sameSignature, sha256, toBase64Url, type HmacKey } from '../crypto';
import { parseJson } from '../protocol/json';
import type { RawAnswer } from './types';

/** States larger than this are refused before any HMAC work. */
export const MAX_STATE_LENGTH = 64 * 1024;

export interface StateBinding {
  caller: string;
  method: string;
  name: string;
  digest: string;
}

interface Payload extends StateBinding {
  v: 1;
  exp: number;
  answers: Record<string, RawAnswer>;
}

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export type StateCheck = { ok: true; answers: Record<string, RawAnswer> } | { ok: false; reason: string };

export async function sealState(key: HmacKey, binding: StateBinding, answers: Record<string, RawAnswer>, ttlMs: number): Promise<string> {
  const payload: Payload = { v: 1, ...binding, exp: Date.now() + ttlMs, answers };
  const body = JSON.stringify(payload);
  return `${body}.${await key.sign(body)}`;
}

export async function openState(key: HmacKey, state: unknown, expected: StateBinding): Promise<StateCheck> {
  if (typeof state !== 'string') return { ok: false, reason: 'not a string' };
  if (state.length > MAX_STATE_LENGTH) return { ok: false, reason: `larger than ${MAX_STATE_LENGTH} characters` };
  const dot = state.lastIndexOf('.');
  const signature = state.slice(dot + 1);
  // An HMAC-SHA256 signature is 32 bytes, 43 characters of base64url: anything else was never issued by a Parley server.
  if (dot <= 0 || !SIGNATURE.test(signature)) return { ok: false, reason: 'malformed' };
  const body = state.slice(0, dot);
  if (!sameSignature(await key.sign(body), signature)) return { ok: false, reason: 'bad signature' };
  // Signed with this server's key but not a payload it reads: another version of Parley issued it (say, mid-deploy).
  const other = { ok: false, reason: 'issued by another version of Parley' } as const;
  let payload: Payload;
  try {
    payload = parseJson(body) as Payload;
  } catch {
    return other;
  }
  if (typeof payload !== 'object' || payload === null || payload.v !== 1 || typeof payload.answers !== 'object' || payload.answers === null) return other;
  if (!(payload.exp > Date.now())) return { ok: false, reason: 'expired' };
  if (payload.caller !== expected.caller) return { ok: false, reason: 'issued to another caller' };
  if (payload.method !== expected.method || payload.name !== expected.name) return { ok: false, reason: 'issued for another request' };
  if (payload.digest !== expected.digest) return { ok: false, reason: 'issued for other arguments' };
  return { ok: true, answers: payload.answers };
}

/** Arguments whose canonical JSON is at most this long bind as they are, with no hashing. */
const INLINE_ARGUMENTS = 128;

/** A stable digest of JSON arguments (keys sorted at every level): short ones verbatim, others by SHA-256. */
export async function digestArguments(args: unknown): Promise<string> {
  const json = canonicalJson(args);
  // Fast path: comparing short JSON is as exact as comparing hashes, and skips an async WebCrypto digest per request.
  // The `json:` prefix cannot occur in base64url, so the two forms never meet.
  return json.length <= INLINE_ARGUMENTS ? `json:${json}` : toBase64Url(await sha256(json));
}

export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  out = '{';
  for (let i = 0; i < keys.length; i++) out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalJson((value as Record<string, unknown>)[keys[i]!])}`;
  return `${out}}`;
}
