// The part of people's sign-in to the inbox that every inbox has, whichever way a person signs in (a one-time code, or
// OpenID Connect): the session's cookie, and the interface of an OpenID Connect sign-in (`http.auth.oidc`). The sign-in
// itself, its routes and the provider's side, is in oidc-sign-in.ts, which app/ loads only where http.auth.oidc is set
// (on an edge runtime, once the entry calls enableOidcSignIn()), so an inbox without it does not carry its code.
import type { AuthOptions, RequestScope, ServerSettings } from '../model';
import { INBOX_BASE, type RouteContext, type Router } from '../protocol';

export type OidcOptions = NonNullable<NonNullable<ServerSettings['http']['auth']>['oidc']>;

/** A person's inbox session: how long it lasts, and the cookie that names it. */
export const SESSION_TTL_MS = 12 * 60 * 60_000;
export const SESSION_COOKIE = 'parley_inbox';

/** What an OpenID Connect sign-in's callback needs from its start: the PKCE verifier and the nonce the ID token must carry. */
export interface SignInFlow {
  verifier: string;
  nonce: string;
}

/** Where sign-in flows are sealed and sessions opened: the inbox's people auth (inbox/people.ts). */
export interface SignInSessions {
  sealSignIn(flow: SignInFlow, state: string, binding: string): Promise<string>;
  openSignIn(sealed: string | undefined, state: string, binding: string): Promise<SignInFlow | undefined>;
  /** `claims`: the verified ID token's, for what the inbox reads of the person (their email, their groups). */
  openSession(subject: string, claims: Record<string, unknown>): Promise<string>;
}

/** What the MCP handler tells the inbox's routes: the public origin the request reached (http.publicUrl, or the proxy's with trustProxy). */
export interface InboxBindings {
  origin: string;
  /** The platform's waitUntil (a Worker's ctx): a task an answer continues runs on after the response. */
  keepAlive?: RequestScope['keepAlive'];
  /** The caller's address, as the MCP endpoint reads it (http.clientAddressHeader, else the socket's peer). */
  client?: string;
}

export type InboxApp = Router<InboxBindings>;
/** The public origin the person reaches the server at, for a request of the inbox's routes. */
export type OriginOf = (c: RouteContext<InboxBindings>) => string;

/** A person's OpenID Connect sign-in (createPersonSignIn in oidc-sign-in.ts, from `http.auth.oidc`): the provider's side and its routes. */
export interface PersonSignIn {
  /** The authorization URL for a new sign-in with this `state`, and what its callback needs. */
  begin(state: string, redirectUri: string): Promise<{ url: string; flow: SignInFlow }>;
  /**
   * The subject (`principal:<iss>#<sub>`) of the person the provider signed in with `code`, and the claims of their
   * verified ID token. Rejects with a `SignInRefusedError` for a code or ID token it refuses, and with another error
   * (logged by the implementation) when the provider cannot be asked.
   */
  finish(code: string, flow: SignInFlow, redirectUri: string): Promise<{ subject: string; claims: Record<string, unknown> }>;
  /** Adds its routes to the inbox's (under /sign-in/), which seal flows and open sessions in `people`. */
  addRoutes(app: InboxApp, people: SignInSessions, originOf: OriginOf): void;
}

/** The provider refused the code, or its ID token does not hold (a 401 for the person, never a 503). */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
}

/** A cookie for the inbox's paths: HttpOnly always, Secure when the server is reached over https. */
export function cookie(
  name: string,
  value: string,
  o: { path: string; sameSite: 'Strict' | 'Lax'; maxAgeS: number; origin: string },
): string {
  const secure = o.origin.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=${o.path}; HttpOnly; SameSite=${o.sameSite}; Max-Age=${o.maxAgeS}${secure}`;
}

/** The session cookie a sign-in sets (a code's or the provider's): Strict, for the inbox's paths only. */
export const sessionCookie = (session: string, origin: string) =>
  cookie(SESSION_COOKIE, session, { path: INBOX_BASE, sameSite: 'Strict', maxAgeS: SESSION_TTL_MS / 1000, origin });

/** The value of the cookie `name` in a Cookie header, if it has one. */
export function readCookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The issuer people sign in at: `oidc.issuer`, else `auth.issuer`; it must be one the server takes tokens from. */
export function signInIssuer(oidc: OidcOptions, auth: AuthOptions | undefined): string {
  const trusted = [auth?.issuer ?? []].flat();
  const issuer = oidc.issuer ?? (trusted.length === 1 ? trusted[0] : undefined);
  if (issuer === undefined)
    throw new Error(
      trusted.length === 0
        ? "Invalid server configuration:\n  http.auth.oidc: people sign in where the server's tokens come from: set auth.issuer (e.g. 'https://idp.example')"
        : `Invalid server configuration:\n  http.auth.oidc.issuer: auth.issuer lists several issuers: name the one people sign in at (one of ${trusted.join(', ')})`,
    );
  if (trusted.length > 0 && !trusted.includes(issuer))
    throw new Error(
      `Invalid server configuration:\n  http.auth.oidc.issuer: "${issuer}" is not one of auth.issuer: a person would sign in as someone no token names`,
    );
  return issuer;
}
