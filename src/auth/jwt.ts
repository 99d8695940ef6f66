// Verifies a compact JWT on crypto.subtle: its algorithm (from the caller's allowlist), its signature and its claims.
// Parley's own, in place of jose, which put ~5.6 KB gzip into every Worker for the little of it Parley used.
import { fromBase64Url, toBase64Url, utf8 } from '../crypto';
import { parseJson } from '../protocol';

/** A JWT's header or claims: a JSON object, its names from the token. */
export type JwtFields = Record<string, unknown>;

/** How WebCrypto imports a key for an algorithm, and how it verifies with it. */
interface JwsAlgorithm {
  /** The JWK `kty` the key must have. */
  kty: string;
  /** importKey's algorithm; the key found must have exactly this one. */
  key: { name: string; hash?: string; namedCurve?: string };
  verify: AlgorithmIdentifier | RsaPssParams | EcdsaParams;
  /** The signature's length in bytes, where the algorithm fixes it (ECDSA's r||s, Ed25519). */
  size?: number;
}

/** Every algorithm Parley verifies: HS256 for a shared secret; RSA, RSA-PSS, ECDSA and EdDSA for a JWKS. Never `none`. */
export const JWS_ALGORITHMS = new Map<string, JwsAlgorithm>([
  ['HS256', { kty: 'oct', key: { name: 'HMAC', hash: 'SHA-256' }, verify: 'HMAC' }],
  ...[256, 384, 512].flatMap((bits): [string, JwsAlgorithm][] => {
    const hash = `SHA-${bits}`;
    const namedCurve = bits === 512 ? 'P-521' : `P-${bits}`;
    return [
      [`RS${bits}`, { kty: 'RSA', key: { name: 'RSASSA-PKCS1-v1_5', hash }, verify: 'RSASSA-PKCS1-v1_5' }],
      [`PS${bits}`, { kty: 'RSA', key: { name: 'RSA-PSS', hash }, verify: { name: 'RSA-PSS', saltLength: bits / 8 } }],
      // JWS ECDSA signatures are r||s, each as long as the curve's order (RFC 7518 §3.4): WebCrypto's format too.
      [
        `ES${bits}`,
        { kty: 'EC', key: { name: 'ECDSA', namedCurve }, verify: { name: 'ECDSA', hash }, size: bits === 512 ? 132 : bits / 4 },
      ],
    ];
  }),
  ...['EdDSA', 'Ed25519'].map((alg): [string, JwsAlgorithm] => [
    alg,
    { kty: 'OKP', key: { name: 'Ed25519' }, verify: 'Ed25519', size: 64 },
  ]),
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
 * outage). Compact JWS only; `crit` and an unencoded payload (`b64`) are refused; `exp` is required.
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
  const cryptoKey = await key(header as JwtFields & { alg: string }, claims);
  const held = cryptoKey.algorithm as KeyAlgorithm & { hash?: { name: string }; namedCurve?: string; modulusLength?: number };
  const wanted = algorithm.key;
  if (held.name !== wanted.name || held.hash?.name !== wanted.hash || held.namedCurve !== wanted.namedCurve)
    throw new Error(`The key is not a key for ${alg}`);
  if (held.modulusLength !== undefined && held.modulusLength < 2048) throw new Error('The RSA key is shorter than 2048 bits');
  const signature = bytesOf(signed);
  if (algorithm.size !== undefined && signature.length !== algorithm.size) throw new Error('The signature has the wrong length');
  if (!(await crypto.subtle.verify(algorithm.verify, cryptoKey, signature, utf8(`${head}.${body}`))))
    throw new Error('The signature does not verify');

  const now = Math.floor(Date.now() / 1000);
  const tolerance = checks.clockToleranceSec ?? 0;
  const { exp, nbf, iat } = claims;
  if (!isTime(exp)) throw new Error('The token has no exp');
  if (exp <= now - tolerance) throw new Error('The token has expired');
  if (nbf !== undefined && (!isTime(nbf) || nbf > now + tolerance)) throw new Error('The token is not valid yet');
  if (iat !== undefined && !isTime(iat)) throw new Error('The token has an iat that is not a time');
  if (checks.issuer !== undefined && ![checks.issuer].flat().includes(claims.iss as string))
    throw new Error('The token is from another issuer');
  const { aud } = claims;
  if (checks.audience !== undefined && !(Array.isArray(aud) ? aud : [aud]).includes(checks.audience))
    throw new Error('The token is for another audience');
  return claims;
}
