// Verifies a compact JWT with jose's jwtVerify (signature, iss, aud, exp, nbf, iat, clock tolerance), behind Parley's
// stricter refusals, checked first: canonical base64url, JSON read as all JSON from outside, the algorithm from the key
// kind's allowlist, no crit and no b64, exp required, the key's own algorithm and size, the signature's length.
import { jwtVerify } from 'jose';
import { fromBase64Url, toBase64Url } from '../crypto';
import { parseJson } from '../protocol';

/** A JWT's header or claims: a JSON object, its names from the token. */
export type JwtFields = Record<string, unknown>;

/** The key an algorithm takes: its JWK family and its WebCrypto algorithm. */
interface JwsAlgorithm {
  /** The JWK `kty` the key must have. */
  kty: string;
  /** importKey's algorithm; the key found must have exactly this one (hash, curve). */
  key: { name: string; hash?: string; namedCurve?: string };
  /** The signature's length in bytes, where the algorithm fixes it (ECDSA's r||s, Ed25519). */
  size?: number;
}

/** Every algorithm Parley verifies: HS256 for a shared secret; RSA, RSA-PSS, ECDSA and EdDSA for a JWKS. Never `none`. */
export const JWS_ALGORITHMS = new Map<string, JwsAlgorithm>([
  ['HS256', { kty: 'oct', key: { name: 'HMAC', hash: 'SHA-256' } }],
  ...[256, 384, 512].flatMap((bits): [string, JwsAlgorithm][] => {
    const hash = `SHA-${bits}`;
    const namedCurve = bits === 512 ? 'P-521' : `P-${bits}`;
    return [
      [`RS${bits}`, { kty: 'RSA', key: { name: 'RSASSA-PKCS1-v1_5', hash } }],
      [`PS${bits}`, { kty: 'RSA', key: { name: 'RSA-PSS', hash } }],
      // JWS ECDSA signatures are r||s, each as long as the curve's order (RFC 7518 §3.4): never DER.
      [`ES${bits}`, { kty: 'EC', key: { name: 'ECDSA', namedCurve }, size: bits === 512 ? 132 : bits / 4 }],
    ];
  }),
  ...['EdDSA', 'Ed25519'].map((alg): [string, JwsAlgorithm] => [alg, { kty: 'OKP', key: { name: 'Ed25519' }, size: 64 }]),
]);

/** The key that verifies a token: looked up from its header (`alg` already allowed, `kid`) and its unverified claims. */
export type JwtKey = (header: JwtFields & { alg: string }, claims: JwtFields) => CryptoKey | Promise<CryptoKey>;

interface JwtChecks {
  /** The algorithms the key may verify, fixed by the kind of key. */
  algorithms: readonly string[];
  /** The `iss` the token must carry: one of these. */
  issuer?: string | readonly string[];
  /** An `aud` the token must carry, exactly (a string, or one of a list). */
  audience?: string;
  /** Seconds of clock difference allowed on `exp` and `nbf`. */
  clockToleranceSec?: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Canonical base64url only: the one spelling of the bytes (no padding, no stray low bits), so a token has one form. */
function bytesOf(part: string): Uint8Array<ArrayBuffer> {
  const bytes = fromBase64Url(part);
  if (!bytes || toBase64Url(bytes) !== part) throw new Error('A part of the token is not base64url');
  return bytes;
}

/** A part's JSON object, read as every JSON from outside is: no `__proto__` keys, no nesting past 128 levels. */
function fieldsOf(part: string): JwtFields {
  const value = parseJson(strictUtf8.decode(bytesOf(part)));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('A part of the token is not a JSON object');
  return value as JwtFields;
}

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The claims of a valid token; throws otherwise (and passes on what `key` throws, such as an identity provider's
 * outage). Parley's refusals come first: those of the token's parts, header, signature length and `exp` before any
 * key is looked up, those of the key (its algorithm, an RSA key's size) once it is; then jose's jwtVerify checks the
 * signature and the claims (issuer, audience, times). Compact JWS only; `crit` and an unencoded payload (`b64`) are
 * refused; `exp` is required.
 */
export async function verifyJwt(token: string, key: JwtKey, checks: JwtChecks): Promise<JwtFields> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error('The token is not a compact JWS');
  const [head, body, signed] = parts as [string, string, string];
  const header = fieldsOf(head);
  const claims = fieldsOf(body);
  const { alg } = header;
  const algorithm = typeof alg === 'string' && checks.algorithms.includes(alg) ? JWS_ALGORITHMS.get(alg) : undefined;
  if (!algorithm) throw new Error('The token is signed with an algorithm this key does not verify');
  // No extension is understood (RFC 7515 §4.1.11); b64: false would sign the payload's raw bytes (RFC 7797), never a JWT.
  if (Object.hasOwn(header, 'crit') || (Object.hasOwn(header, 'b64') && header.b64 !== true))
    throw new Error('The token uses a JWS extension (crit, b64)');
  const signature = bytesOf(signed);
  if (algorithm.size !== undefined && signature.length !== algorithm.size) throw new Error('The signature has the wrong length');
  if (!isTime(claims.exp)) throw new Error('The token has no exp');
  const cryptoKey = await key(header as JwtFields & { alg: string }, claims);
  const held = cryptoKey.algorithm as KeyAlgorithm & { hash?: { name: string }; namedCurve?: string; modulusLength?: number };
  const wanted = algorithm.key;
  if (held.name !== wanted.name || held.hash?.name !== wanted.hash || held.namedCurve !== wanted.namedCurve)
    throw new Error(`The key is not a key for ${alg}`);
  if (held.modulusLength !== undefined && held.modulusLength < 2048) throw new Error('The RSA key is shorter than 2048 bits');
  await jwtVerify(token, cryptoKey, {
    algorithms: [alg as string],
    issuer: checks.issuer as string | string[] | undefined,
    audience: checks.audience,
    clockTolerance: checks.clockToleranceSec ?? 0,
    requiredClaims: ['exp'],
  });
  // The claims as Parley read them (no `__proto__` names), which jose has just checked.
  return claims;
}
