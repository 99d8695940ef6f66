// Verified tokens, kept until they expire so a caller's next request skips the signature: bounded, keyed by a digest.
import { sha256, toBase64Url } from '../crypto';

const MAX_ENTRIES = 1000;

interface Entry<T> {
  value: T;
  /** Past this (ms since the epoch), the entry is gone and the token is verified again (and refused). */
  until: number;
}

interface TokenCache<T> {
  /** The token's digest (the key) and what was kept for it, if it has not expired. */
  get(token: string): Promise<{ key: string; value?: T }>;
  set(key: string, value: T, until: number): void;
}

/** WebCrypto's SHA-256 of a token, base64url. */
const sha256Key = async (token: string) => toBase64Url(await sha256(token));

/**
 * A cache of what verifying a token gave. The key is the token's digest (`digest`: by default its SHA-256; a runtime's
 * own keyed hash where the adapter passes one), so the map never holds a token. At the bound the oldest entry goes (a
 * Map iterates in insertion order): a flood of distinct tokens costs the memory of the bound.
 */
export function createTokenCache<T>({
  digest = sha256Key,
  maxEntries = MAX_ENTRIES,
}: {
  digest?: (token: string) => string | Promise<string>;
  maxEntries?: number;
} = {}): TokenCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    async get(token) {
      const key = await digest(token);
      const entry = entries.get(key);
      if (!entry) return { key };
      if (entry.until > Date.now()) return { key, value: entry.value };
      entries.delete(key);
      return { key };
    },
    set(key, value, until) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until });
    },
  };
}
