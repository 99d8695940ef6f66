// Standard Webhooks 1.0 signing for the nudge: `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,` and the
// base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`), sent beside Parley's own `parley-*` headers.
import { hmac, importHmacKey, utf8 } from '../crypto';

const WHSEC = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key a secret names: a `whsec_` secret is `whsec_` and the base64 of the key's bytes (the Standard Webhooks
 * form, 24 to 64 bytes); any other secret is used as its UTF-8 bytes (a receiver's library then needs its "raw" form).
 * Undefined for a `whsec_` secret that is not valid base64 of 24 to 64 bytes.
 */
export function standardWebhookKey(secret: string): Uint8Array<ArrayBuffer> | undefined {
  if (!secret.startsWith(WHSEC)) return utf8(secret);
  const encoded = secret.slice(WHSEC.length);
  if (!BASE64.test(encoded)) return undefined;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  return bytes.length >= 24 && bytes.length <= 64 ? bytes : undefined;
}

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''));

/** Signs one attempt: the three headers for a message id (the same on every retry) and this attempt's timestamp. */
export async function standardWebhookHeaders(
  key: Uint8Array<ArrayBuffer>,
  id: string,
  timestamp: string,
  body: string,
): Promise<Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>> {
  const signature = toBase64(await hmac(await importHmacKey(key), `${id}.${timestamp}.${body}`));
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
