// Reading the identity provider's answers (metadata, JWKS, introspection, tokens): capped, never redirected, timed out,
// and a failure is the provider's outage (503), never the token's fault (401).
import { parseJson, readBody } from '../protocol';

/** The most an answer of the identity provider may hold (metadata, JWKS, introspection, tokens): past it, its outage. */
const MAX_IDP_BYTES = 256 * 1024;
export const IDP_TIMEOUT_MS = 5_000;

/** The identity provider (its metadata or its JWKS) could not be reached or answered nonsense: a 503, not a 401. */
export class IdpUnavailableError extends Error {
  override name = 'IdpUnavailableError';
}

/** GETs a JSON document of the identity provider: its JSON, or IdpUnavailableError saying why not (never a token's fault). */
export async function fetchIdpJson(url: URL, what: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    const headers = { accept: 'application/json', ...(init.headers as Record<string, string>) };
    // Never followed: a redirect is an answer like any other not-2xx ('manual', as workerd refuses 'error').
    const response = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(IDP_TIMEOUT_MS) });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`it answered ${response.status}`);
    }
    body = await readIdpJson(response);
  } catch (error) {
    throw new IdpUnavailableError(`${what} at ${url.href} could not be read: ${(error as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new IdpUnavailableError(`${what} at ${url.href} is not a JSON object`);
  return body as Record<string, unknown>;
}

/**
 * An answer of the identity provider as JSON, read with a cap as it streams in: reading stops past MAX_IDP_BYTES, and
 * the error says so. Throws on JSON that is not (as any JSON from outside: no `__proto__`, 128 levels at most).
 */
export async function readIdpJson(response: Response): Promise<unknown> {
  // Streamed whatever Content-Length says: it counts the bytes on the wire, before any decompression.
  const text = await readBody(new Response(response.body), MAX_IDP_BYTES);
  if (typeof text === 'string') return parseJson(text);
  throw new Error(text.status === 413 ? `its answer is larger than the ${MAX_IDP_BYTES / 1024} KB limit` : text.message);
}
