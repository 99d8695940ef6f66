// People sign in to the inbox with OpenID Connect: the routes that send the browser to the provider and take it back,
// and signing out. The provider's side (its metadata, the code exchange, the ID token) is app/'s `PersonSignIn`.
import type { Context, Hono } from 'hono';
import { toBase64Url, randomBytes } from '../crypto';
import { INBOX_BASE } from '../protocol';
import { SESSION_COOKIE, SESSION_TTL_MS, readCookie, type LoopbackTokenAuth, type SignInFlow } from './people';

/** What the MCP handler tells the inbox's routes: the public origin the request reached (http.publicUrl, or the proxy's with trustProxy). */
export interface InboxBindings {
  origin: string;
}

type InboxApp = Hono<{ Bindings: InboxBindings }>;

/** The provider's side of a person's sign-in (app/ makes it from `http.auth.oidc`). */
export interface PersonSignIn {
  /** The authorization URL for a new sign-in with this `state`, and what its callback needs. */
  begin(state: string, redirectUri: string): Promise<{ url: string; flow: SignInFlow }>;
  /**
   * The subject (`principal:<iss>#<sub>`) of the person the provider signed in with `code`. Rejects with a
   * `SignInRefusedError` for a code or ID token it refuses, and with another error (logged by the implementation)
   * when the provider cannot be asked.
   */
  finish(code: string, flow: SignInFlow, redirectUri: string): Promise<string>;
}

/** The provider refused the code, or its ID token does not hold (a 401 for the person, never a 503). */
export class SignInRefusedError extends Error {
  override name = 'SignInRefusedError';
}

const FLOW_COOKIE = 'parley_sign_in';
const FLOW_TTL_S = 600;
const CALLBACK_PATH = `${INBOX_BASE}/sign-in/callback`;

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

// What the person reads after the callback: a page of the server's own, so the inbox's navigation that follows is
// same-site and its Strict session cookie goes with it (a redirect would still count as the provider's navigation).
const SIGNED_IN = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${INBOX_BASE}/inbox">
<title>Signed in</title></head><body><p>Signed in. <a href="${INBOX_BASE}/inbox">Open your inbox</a>.</p></body></html>`;

function page(status: number, text: string, extra: [string, string][] = []): Response {
  const headers = new Headers({
    'content-type': status === 200 ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  });
  for (const [name, value] of extra) headers.append(name, value);
  return new Response(status === 200 ? SIGNED_IN : text, { status, headers });
}

const RETRY: [string, string][] = [['retry-after', '5']];

/**
 * Adds the OpenID Connect routes: GET /sign-in/oidc starts (a state cookie, Lax so the provider's redirect brings it
 * back), GET /sign-in/callback finishes (the state must be the cookie's and is spent once). `originOf` is the public
 * origin the person reaches the server at, which the redirect URI and Secure follow.
 */
export function addSignInRoutes(
  app: InboxApp,
  people: LoopbackTokenAuth,
  signIn: PersonSignIn,
  originOf: (c: Context<{ Bindings: InboxBindings }>) => string,
): void {
  app.get('/sign-in/oidc', async (c) => {
    const origin = originOf(c);
    const state = toBase64Url(randomBytes(32));
    let started: Awaited<ReturnType<PersonSignIn['begin']>>;
    try {
      started = await signIn.begin(state, origin + CALLBACK_PATH);
    } catch {
      return page(503, 'The identity provider cannot be reached right now. Try again in a moment.', RETRY);
    }
    await people.keepSignIn(state, started.flow);
    const flowCookie = cookie(FLOW_COOKIE, state, { path: `${INBOX_BASE}/sign-in`, sameSite: 'Lax', maxAgeS: FLOW_TTL_S, origin });
    return new Response(null, { status: 302, headers: { location: started.url, 'set-cookie': flowCookie, 'cache-control': 'no-store' } });
  });

  app.get('/sign-in/callback', async (c) => {
    const origin = originOf(c);
    const state = c.req.query('state');
    const code = c.req.query('code');
    if (c.req.query('error') !== undefined) return page(401, 'The identity provider did not sign you in. Open the inbox to try again.');
    // The state must be the one this browser was given: a callback link made for someone else's browser is refused.
    if (!state || !code || state !== readCookie(c.req.header('cookie') ?? null, FLOW_COOKIE))
      return page(400, 'This sign-in was not started in this browser, or it is over. Open the inbox to sign in again.');
    const flow = await people.takeSignIn(state);
    if (!flow) return page(400, 'This sign-in has expired or was already used. Open the inbox to sign in again.');
    let subject: string;
    try {
      subject = await signIn.finish(code, flow, origin + CALLBACK_PATH);
    } catch (error) {
      if (error instanceof SignInRefusedError) return page(401, `Sign-in refused: ${error.message}. Open the inbox to try again.`);
      return page(503, 'The identity provider cannot be reached right now. Open the inbox to try again.', RETRY);
    }
    return page(200, '', [
      ['set-cookie', sessionCookie(await people.openSession(subject), origin)],
      ['set-cookie', cookie(FLOW_COOKIE, '', { path: `${INBOX_BASE}/sign-in`, sameSite: 'Lax', maxAgeS: 0, origin })],
    ]);
  });
}
