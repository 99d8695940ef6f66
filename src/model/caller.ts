// The caller from what verified it: Parley's own AuthInfo, the official SDK's AuthInfo (what withMcpAuth and
// requireBearerAuth produce), or a token's claims (a JWT's payload, an introspection answer).
import type { AuthInfo } from './tool-types';

type Fields = Record<string, unknown>;
const isFields = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const named = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The scopes claims grant: `scope` (space-separated, RFC 9068 and RFC 7662) or `scp` (a list, or a string). */
function scopesOf(claims: Fields): string[] {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return raw.split(' ').filter(Boolean);
  return Array.isArray(raw) ? raw.filter(named) : [];
}

/** The caller a token's claims name; a client's token without `sub` (client credentials) is that client. */
export function callerFromClaims(claims: Fields, token: string, resource?: string): AuthInfo | undefined {
  const sub = [claims.sub, claims.client_id, claims.azp].find(named);
  if (sub === undefined) return undefined;
  const clientId = [claims.client_id, claims.azp].find(named);
  const iss = typeof claims.iss === 'string' ? claims.iss : undefined;
  const expiresAt = typeof claims.exp === 'number' ? claims.exp : undefined;
  return { user: { ...claims, sub, iss }, clientId, token, scopes: scopesOf(claims), expiresAt, resource };
}

/** The official SDK's AuthInfo, as `withMcpAuth` and `requireBearerAuth` put it on a request. */
export interface SdkAuthInfo {
  token: string;
  clientId: string;
  scopes: string[];
  expiresAt?: number;
  resource?: URL;
  extra?: Record<string, unknown>;
}

/**
 * The caller, whichever shape it came in; undefined when it names nobody. The SDK's shape (`{ token, clientId,
 * scopes, expiresAt?, resource?: URL, extra? }`) becomes a user with `extra`'s fields, whose `sub` is `extra.sub`, else
 * the client.
 */
export function toCaller(given: unknown, token?: string, resource?: string): AuthInfo | undefined {
  if (!isFields(given)) return undefined;
  // Fast path: Parley's own shape, as a host or a verifier built it.
  if (isFields(given.user) && named(given.user.sub)) return given as AuthInfo;
  if (named(given.clientId) && Array.isArray(given.scopes) && typeof given.token === 'string') {
    const extra = isFields(given.extra) ? given.extra : {};
    const at = given.resource instanceof URL ? given.resource.href : named(given.resource) ? given.resource : resource;
    return {
      user: { ...extra, sub: named(extra.sub) ? extra.sub : given.clientId },
      clientId: given.clientId,
      token: given.token,
      scopes: given.scopes.filter(named),
      expiresAt: typeof given.expiresAt === 'number' ? given.expiresAt : undefined,
      resource: at,
    };
  }
  return token === undefined ? undefined : callerFromClaims(given, token, resource);
}
