// The requestState of 2026-07-28 rounds: the answers so far, bound to caller, request and expiry, under a listed key.
// Two forms, both naming the key (its id) that issued them, so any instance holding that key opens them:
//   sealed (default): `s1.<key id>.<iv>.<ciphertext>.<tag>`, AES-256-GCM of the payload's JSON, `s1.<key id>` as the
//     additional data; the client holds an opaque token.
//   signed: `<payload JSON>.<key id>.<HMAC-SHA256 of what precedes it>`, readable by the client, tamper-proof.
// The binding (caller, method, name, argument digest, expiry) is inside the payload in both forms, so one check reads
// it after the seal or signature holds and the log can say which part did not match. Nothing is read before that.
import { canonicalEnd, KEY_ID, sameSignature, sha256, toBase64Url } from '../crypto';
import { jsonString, MAX_JSON_DEPTH, parseJson, tooDeep } from '../protocol';
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
// `s1.<key id>.<iv>.<data>.<tag>` in one test: an 8-character key id, a 12-byte IV, base64url data, a 16-byte tag. An
// extra character anywhere in them (or a suffix) is no state Parley issued.
const SEALED_FORM = /^s1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/;

export type StateCheck =
  | ({ ok: true } & StateContent)
  /** `malformed`: no Parley server could have issued it. `unknownKey`: the id of a key this server does not list. */
  | { ok: false; reason: string; malformed?: true; unknownKey?: string };

const MALFORMED: StateCheck = { ok: false, reason: 'malformed', malformed: true };
const OTHER_VERSION: StateCheck = { ok: false, reason: 'issued by another version of Parley' };
const ALTERED: StateCheck = { ok: false, reason: 'altered: its seal does not open' };
const unknownKey = (id: string): StateCheck => ({
  ok: false,
  reason: `issued under key id ${id}, which this instance does not list`,
  unknownKey: id,
});

// Random IVs drawn 256 at a time, with their base64url: one getRandomValues call and one encoding per 256 states. Each
// IV is 12 bytes, four whole groups of 3, so its text is 16 characters of the pool's text, with no copy and no encoding
// per state. A state's IV is a view of the pool; a used pool is never written again (the next is a new array).
const IV_BYTES = 12;
const IV_CHARS = 16;
const IVS_PER_POOL = 256;
let ivPool = new Uint8Array(0);
let ivPoolText = '';
let ivAt = IVS_PER_POOL;
/** A fresh random 96-bit IV (NIST SP 800-38D bounds random IVs at 2^32 seals per key: rotate long before that). */
function freshIv(): { iv: Uint8Array<ArrayBuffer>; text: string } {
  if (ivAt === IVS_PER_POOL) {
    ivPool = crypto.getRandomValues(new Uint8Array(IV_BYTES * IVS_PER_POOL));
    ivPoolText = toBase64Url(ivPool);
    ivAt = 0;
  }
  const at = ivAt++;
  return { iv: ivPool.subarray(at * IV_BYTES, (at + 1) * IV_BYTES), text: ivPoolText.slice(at * IV_CHARS, (at + 1) * IV_CHARS) };
}

/**
 * The payload's JSON, written here in one pass: the object a JSON.stringify of it would build is never made, and the
 * binding's plain strings are not escaped again. The same JSON as `JSON.stringify(payload)`, key for key.
 */
function payloadJson(binding: StateBinding, content: StateContent, exp: number): string {
  let json = `{"v":1,"caller":${jsonString(binding.caller)},"method":${jsonString(binding.method)},"name":${jsonString(binding.name)},"digest":${jsonString(binding.digest)},"exp":${exp},"answers":{`;
  let first = true;
  for (const key in content.answers) {
    if (!Object.hasOwn(content.answers, key)) continue;
    const value = JSON.stringify(content.answers[key]);
    if (value === undefined) continue;
    json += `${first ? '' : ','}${jsonString(key)}:${value}`;
    first = false;
  }
  return content.steps ? `${json}},"steps":${JSON.stringify(content.steps)}}` : `${json}}}`;
}

/** The state's text: synchronous when the runtime's HMAC or AEAD is (parley-mcp/node), else a promise of it. */
export function sealState(
  keys: StateKeys,
  form: StateForm,
  binding: StateBinding,
  content: StateContent,
  ttlMs: number,
): string | Promise<string> {
  const json = payloadJson(binding, content, Date.now() + ttlMs);
  const key = keys.primary;
  if (form === 'signed') {
    const body = `${json}.${key.id}`;
    const signature = key.hmac.sign(body);
    return typeof signature === 'string' ? `${body}.${signature}` : signature.then((s) => `${body}.${s}`);
  }
  const header = `${SEALED}.${key.id}`;
  const { iv, text } = freshIv();
  const sealed = key.aes.seal(iv, json, header);
  return typeof sealed === 'string' ? `${header}.${text}.${sealed}` : sealed.then((s) => `${header}.${text}.${s}`);
}

/** What the state holds, if it opens and was issued for `expected`: synchronous when the runtime's crypto is. */
export function openState(keys: StateKeys, state: unknown, expected: StateBinding): StateCheck | Promise<StateCheck> {
  if (typeof state !== 'string') return { ok: false, reason: 'not a string' };
  if (state.length > MAX_STATE_LENGTH) return { ok: false, reason: `larger than ${MAX_STATE_LENGTH} characters` };
  const json = state.startsWith(`${SEALED}.`) ? openSealed(keys, state) : openSigned(keys, state);
  if (typeof json === 'string') return readPayload(json, expected);
  if (json instanceof Promise) return json.then((text) => (typeof text === 'string' ? readPayload(text, expected) : text));
  return json;
}

function openSealed(keys: StateKeys, state: string): string | StateCheck | Promise<string | StateCheck> {
  // base64url whose unused bits are set decodes to the same bytes: a character changed there is no state Parley wrote.
  if (!SEALED_FORM.test(state) || !canonicalEnd(state, 29, state.length - 23) || !canonicalEnd(state, state.length - 22)) return MALFORMED;
  const id = state.slice(3, 11);
  const key = keys.byId.get(id);
  if (!key) return unknownKey(id);
  const json = key.aes.open(state.slice(12, 28), state.slice(29, -23), state.slice(-22), state.slice(0, 11));
  if (json instanceof Promise) return json.then((text) => text ?? ALTERED);
  return json ?? ALTERED;
}

function openSigned(keys: StateKeys, state: string): string | StateCheck | Promise<string | StateCheck> {
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
  const checked = (expected: string) => (sameSignature(expected, signature) ? body.slice(0, idDot) : BAD_SIGNATURE);
  const expected = key.hmac.sign(body);
  return typeof expected === 'string' ? checked(expected) : expected.then(checked);
}

const BAD_SIGNATURE: StateCheck = { ok: false, reason: 'bad signature' };

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

/** A stable digest of JSON arguments (keys sorted at every level): short ones verbatim (at once), others by SHA-256. */
export function digestArguments(args: unknown): string | Promise<string> {
  const json = canonicalJson(args);
  // Fast path: comparing short JSON is as exact as comparing hashes, and skips an async WebCrypto digest per request.
  // The `json:` prefix cannot occur in base64url, so the two forms never meet.
  return json.length <= INLINE_ARGUMENTS ? `json:${json}` : sha256(json).then(toBase64Url);
}

/** JSON with keys sorted at every level; arrays and objects nested deeper than MAX_JSON_DEPTH throw `tooDeep()`. */
export const canonicalJson = (value: unknown): string => canonical(value, 1);

function canonical(value: unknown, depth: number): string {
  // Leaves as JSON.stringify writes them; a string or a finite number with no call into it (most arguments).
  if (typeof value === 'string') return jsonString(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
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
    out += `${i ? ',' : ''}${jsonString(keys[i]!)}:${canonical((value as Record<string, unknown>)[keys[i]!], depth + 1)}`;
  return `${out}}`;
}
