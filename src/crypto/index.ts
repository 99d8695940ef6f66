// The crypto subsystem's door: encodings and WebCrypto primitives.
export { fromBase64Url, canonicalEnd, toBase64Url, toHex, utf8 } from './encoding';
export { hmac, importHmacKey, randomBytes, sha256 } from './keys';
export { createHmacKey, sameSignature } from './hmac-key';
export type { HmacFactory, HmacKey } from './hmac-key';
export { aesSeal, decryptJson, encryptJson } from './aes';
export type { AesSealed } from './aes';
export { hkdfBytes, KEY_ID, keyIdOf, secretList } from './keyring';
export { createAeadKey } from './aead-key';
export type { AeadFactory, AeadKey } from './aead-key';
export { WEB_STORE_CRYPTO } from './store-crypto';
export type { StoreCrypto } from './store-crypto';
