// The requestState of 2026-07-28 rounds: the answers so far, bound to caller, request and expiry, under a listed key.
// Two forms, both naming the key (its id) that issued them, so any instance holding that key opens them:
//   sealed (default): `s1.<key id>.<iv>.<ciphertext>.<tag>`, AES-256-GCM of the payload's JSON, `s1.<key id>` as the
//     additional data; the client holds an opaque token.
//   signed: `<payload JSON>.<key id>.<HMAC-SHA256 of what precedes it>`, readable by the client, tamper-proof.
// The binding (caller, method, name, argument digest, expiry) is inside the payload in both forms, so one check reads
// it after the seal or signature holds and the log can say which part did not match. Nothing is read before that.
import { fromBase64Url, KEY_ID, sameSignature, sha256, toBase64Url } from '../crypto';
import { MAX_JSON_DEPTH, parseJson, tooDeep } from '../protocol';
import type { StateKeys } from './state-keys';
import type { RawAnswer } from './types';

/** States larger than this are refused before any HMAC or AES work. */
export const MAX_STATE_LENGTH = 64 * 1024;

/** `sealed` hides the answers and arguments from the client; `signed` leaves them readable (and skips the AES work). */
export type StateForm = 'sealed' | 'signed';

export interface StateBinding {
  caller: string;
  method: string;
  name: string;
  digest: string;
}

/** What a state carries: the answers so far and, once the run took a step, the steps' recorded results (entries). */
interface StateContent {
  answers: Record<string, RawAnswer>;
  steps?: [string, unknown?][];
}

interface Payload extends StateBinding, StateContent {
  v: 1;
  exp: number;
}

const SEALED = 's1';
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/; // HMAC-SHA256: 32 bytes
const IV = /^[A-Za-z0-9_-]{16}$/; // 12 bytes
const TAG = /^[A-Za-z0-9_-]{22}$/; // 16 bytes
const DATA = /^[A-Za-z0-9_-]+$/;

type StateCheck =
  | ({ ok: true } & StateContent)
  /** `malformed`: no Parley server could have issued it. `unknownKey`: the id of a key this server does not list. */
  | { ok: false; reason: string; malformed?: true; unknownKey?: string };

const MALFORMED: StateCheck = { ok: false, reason: 'malformed', malformed: true };
const OTHER_VERSION: StateCheck = { ok: false, reason: 'issued by another version of Parley' };
const unknownKey = (id: string): StateCheck => ({
  ok: false,
  reason: `issued under key id ${id}, which this instance does not list`,
  unknownKey: id,
});

// Random IVs drawn 256 at a time: one getRandomValues call per 256 states instead of one each (about 3 µs on Node).
const IV_BYTES = 12;
let ivPool = new Uint8Array(0);
let ivAt = 0;
/** A fresh random 96-bit IV (NIST SP 800-38D bounds random IVs at 2^32 seals per key: rotate long before that). */
function freshIv(): Uint8Array<ArrayBuffer> {
  if (ivAt === ivPool.length) {
    ivPool = crypto.getRandomValues(new Uint8Array(IV_BYTES * 256));
    ivAt = 0;
  }
  return ivPool.slice(ivAt, (ivAt += IV_BYTES)); // a copy: no two states share the pool's bytes
}

export async function sealState(
  keys: StateKeys,
  form: StateForm,
  binding: StateBinding,
  content: StateContent,
  ttlMs: number,
): Promise<string> {
  const payload: Payload = { v: 1, ...binding, exp: Date.now() + ttlMs, ...content };
  const json = JSON.stringify(payload);
  const key = keys.primary;
  if (form === 'signed') {
    const body = `${json}.${key.id}`;
    return `${body}.${await key.hmac.sign(body)}`;
  }
  const header = `${SEALED}.${key.id}`;
  const iv = freshIv();
  return `${header}.${toBase64Url(iv)}.${await key.aes.seal(iv, json, header)}`;
}

export async function openState(keys: StateKeys, state: unknown, expected: StateBinding): Promise<StateCheck> {
  if (typeof state !== 'string') return { ok: false, reason: 'not a string' };
  if (state.length > MAX_STATE_LENGTH) return { ok: false, reason: `larger than ${MAX_STATE_LENGTH} characters` };
  let json: string | StateCheck;
  if (state.startsWith(`${SEALED}.`)) json = await openSealed(keys, state);
  else json = await openSigned(keys, state);
  return typeof json === 'string' ? readPayload(json, expected) : json;
}

async function openSealed(keys: StateKeys, state: string): Promise<string | StateCheck> {
  const parts = state.split('.');
  if (parts.length !== 5) return MALFORMED;
  const [, id, ivText, dataText, tagText] = parts as [string, string, string, string, string];
  // A fixed-length IV and tag: an extra character anywhere in them (or a suffix) is no state Parley issued.
  // The data is base64url too (no byte count leaves one character over): the AEAD decodes it and the tag.
  if (!KEY_ID.test(id) || !IV.test(ivText) || !TAG.test(tagText) || !DATA.test(dataText) || dataText.length % 4 === 1) return MALFORMED;
  const key = keys.byId.get(id);
  if (!key) return unknownKey(id);
  const json = await key.aes.open(fromBase64Url(ivText)!, dataText, tagText, `${SEALED}.${id}`);
  return json ?? { ok: false, reason: 'altered: its seal does not open' };
}

async function openSigned(keys: StateKeys, state: string): Promise<string | StateCheck> {
  const dot = state.lastIndexOf('.');
  const signature = state.slice(dot + 1);
  // An HMAC-SHA256 signature is 32 bytes, 43 characters of base64url: anything else was never issued by a Parley server.
  if (dot <= 0 || !SIGNATURE.test(signature)) return MALFORMED;
  const body = state.slice(0, dot);
  const idDot = body.lastIndexOf('.');
  const id = body.slice(idDot + 1);
  // Signed, but naming no key: what Parley issued before key ids (say, mid-deploy). Nothing in it is read.
  if (idDot <= 0 || !KEY_ID.test(id)) return OTHER_VERSION;
  const key = keys.byId.get(id);
  if (!key) return unknownKey(id);
  if (!sameSignature(await key.hmac.sign(body), signature)) return { ok: false, reason: 'bad signature' };
  return body.slice(0, idDot);
}

function readPayload(json: string, expected: StateBinding): StateCheck {
  // Authentic under a listed key but not a payload this version reads: another version of Parley issued it.
  let payload: Payload;
  try {
    payload = parseJson(json) as Payload;
  } catch {
    return OTHER_VERSION;
  }
  if (typeof payload !== 'object' || payload === null || payload.v !== 1 || typeof payload.answers !== 'object' || payload.answers === null)
    return OTHER_VERSION;
  if (!(payload.exp > Date.now())) return { ok: false, reason: 'expired' };
  if (payload.caller !== expected.caller) return { ok: false, reason: 'issued to another caller' };
  if (payload.method !== expected.method || payload.name !== expected.name) return { ok: false, reason: 'issued for another request' };
  if (payload.digest !== expected.digest) return { ok: false, reason: 'issued for other arguments' };
  return { ok: true, answers: payload.answers, steps: payload.steps };
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

/** JSON with keys sorted at every level; arrays and objects nested deeper than MAX_JSON_DEPTH throw `tooDeep()`. */
export const canonicalJson = (value: unknown): string => canonical(value, 1);

function canonical(value: unknown, depth: number): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonical(value[i], depth + 1);
    return `${out}]`;
  }
  const keys = Object.keys(value).sort();
  out = '{';
  for (let i = 0; i < keys.length; i++)
    out += `${i ? ',' : ''}${JSON.stringify(keys[i])}:${canonical((value as Record<string, unknown>)[keys[i]!], depth + 1)}`;
  return `${out}}`;
}
