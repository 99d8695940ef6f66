// The crypto subsystem's door: encodings and WebCrypto primitives.
export { base64UrlToText, fromBase64Url, fromUtf8, textToBase64Url, toBase64Url, toHex, useNativeTextCodec, utf8 } from './encoding';
export type { TextCodec } from './encoding';
export { deriveAesKey, hmac, importHmacKey, randomBytes, sha256 } from './keys';
export { createHmacKey, sameSignature, useNativeHmac } from './hmac-key';
export type { HmacFactory, HmacKey } from './hmac-key';
export { aesOpen, aesSeal, decryptJson, ELICITATION_STORE_PURPOSE, encryptJson, ownerKey } from './aes';
export type { AesSealed } from './aes';
