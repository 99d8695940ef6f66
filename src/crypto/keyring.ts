// Secret lists and key ids: a secret setting names one or more secrets, newest first; each secret has a short public id.
import { toBase64Url, toHex, utf8 } from './encoding';
import { hmac, importHmacKey, sha256 } from './keys';

/**
 * The secrets a setting names, in order: comma-separated, spaces around each ignored, empty entries dropped.
 * The first seals everything new; every one listed opens. A secret therefore cannot contain a comma.
 * @example secretList('new-secret, old-secret'); // ['new-secret', 'old-secret']
 */
export function secretList(setting: string | undefined): string[] {
  if (setting === undefined) return [];
  const out: string[] = [];
  for (const part of setting.split(',')) {
    const secret = part.trim();
    if (secret && !out.includes(secret)) out.push(secret);
  }
  return out;
}

/** What a key id is an HMAC of: a fixed label, so the id says which secret without saying anything about it. */
const KEY_ID_LABEL = 'parley key id v1';
/** 6 bytes, 8 characters of base64url: two listed secrets share an id with odds of about 1 in 2^48. */
const KEY_ID_BYTES = 6;
export const KEY_ID = /^[A-Za-z0-9_-]{8}$/;

/** The key id of a secret: the first 6 bytes of HMAC-SHA256(secret, a fixed label), base64url. Never the secret. */
export async function keyIdOf(secret: string | Uint8Array<ArrayBuffer>): Promise<string> {
  const mac = await hmac(await importHmacKey(secret), KEY_ID_LABEL);
  return toBase64Url(mac.subarray(0, KEY_ID_BYTES));
}

/** HKDF-SHA256 bytes from a secret: `info` separates what they are for. */
export async function hkdfBytes(secret: string | Uint8Array<ArrayBuffer>, info: string, salt = ''): Promise<Uint8Array<ArrayBuffer>> {
  const raw = typeof secret === 'string' ? utf8(secret) : secret;
  const base = await crypto.subtle.importKey('raw', raw, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: utf8(salt), info: utf8(info) }, base, 256));
}

/** A cache key for something derived from a secret: the SHA-256 of the parts, so no cache holds the secret itself. */
export async function cacheKeyOf(...parts: string[]): Promise<string> {
  return toHex(await sha256(JSON.stringify(parts)));
}
