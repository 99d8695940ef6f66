// People sign in to the inbox with OpenID Connect: the routes that send the browser to the provider and take it back,
// and signing out. The provider's side (its metadata, the code exchange, the ID token) is app/'s `PersonSignIn`.
import type { Context, Hono } from 'hono';
import { toBase64Url, randomBytes } from '../crypto';
import type { RequestScope } from '../model';
import { INBOX_BASE, readBody } from '../protocol';
import { SESSION_COOKIE, SESSION_TTL_MS, readCookie, type LoopbackTokenAuth, type SignInFlow } from './people';

/** What the MCP handler tells the inbox's routes: the public origin the request reached (http.publicUrl, or the proxy's with trustProxy). */
export interface InboxBindings {
  origin: string;
  /** The platform's waitUntil (a Worker's ctx): a task an answer continues runs on after the response. */
  keepAlive?: RequestScope['keepAlive'];
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
const SIGN_IN = `${INBOX_BASE}/sign-in`;
const CALLBACK_PATH = `${SIGN_IN}/callback`;
const BINDING = /^[0-9a-f]{64}$/;
const MAX_FORM_BYTES = 4096;

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

// The two steps a browser takes in a page of this origin: before the provider (POST /sign-in/oidc) and after it (POST
// /sign-in/callback). FLOW_SCRIPT fills the form (the binding, and the callback's code and state) and sends it.
const stepPage = (action: string, fields: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Signing in…</title><script src="${SIGN_IN}/flow.js" defer></script></head>
<body><form method="post" action="${action}">${fields.map((name) => `<input type="hidden" name="${name}">`).join('')}<p>Signing in…</p>
<noscript><p>Signing in needs JavaScript.</p></noscript></form></body></html>`;
const START_PAGE = stepPage(`${SIGN_IN}/oidc`, ['binding']);
const FINISH_PAGE = stepPage(CALLBACK_PATH, ['binding', 'code', 'state']);

// The binding lives in this origin's sessionStorage, which no page of another origin (another port included) can
// read or write, unlike a cookie: a flow started elsewhere holds another binding and cannot finish in this browser.
const FLOW_SCRIPT = `(() => {
  const form = document.forms[0];
  const query = new URLSearchParams(location.search);
  let binding = sessionStorage.getItem('parley_sign_in');
  if (!binding) {
    binding = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('parley_sign_in', binding);
  }
  for (const input of form.querySelectorAll('input')) input.value = input.name === 'binding' ? binding : (query.get(input.name) ?? '');
  form.submit();
})();
`;

const HEADERS = {
  'cache-control': 'no-store',
  // Not no-referrer: under it a form's POST says `Origin: null`, and these POSTs are checked by their Origin.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; script-src 'self'; base-uri 'none'; frame-ancestors 'none'",
};

function page(status: number, text: string, extra: [string, string][] = []): Response {
  const headers = new Headers({ ...HEADERS, 'content-type': status === 200 ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8' });
  for (const [name, value] of extra) headers.append(name, value);
  return new Response(status === 200 ? SIGNED_IN : text, { status, headers });
}

const html = (body: string) => new Response(body, { headers: { ...HEADERS, 'content-type': 'text/html; charset=utf-8' } });

const RETRY: [string, string][] = [['retry-after', '5']];

/** The flow cookie's name and path: `__Host-` (Secure, Path=/, no Domain) where the origin is https. */
const flowCookieOf = (origin: string) =>
  origin.startsWith('https:') ? { name: `__Host-${FLOW_COOKIE}`, path: '/' } : { name: FLOW_COOKIE, path: SIGN_IN };

const flowCookie = (value: string, origin: string, maxAgeS: number) => {
  const { name, path } = flowCookieOf(origin);
  return cookie(name, value, { path, sameSite: 'Lax', maxAgeS, origin });
};

/** A POST of this origin's own pages only: its Origin must be the public origin, and the browser must not call it another site's. */
function fromOwnPage(c: Context<{ Bindings: InboxBindings }>, origin: string): boolean {
  const site = c.req.header('sec-fetch-site');
  return c.req.header('origin') === origin && (site === undefined || site === 'same-origin');
}

/** The fields of a small form body, or undefined when it is not one. */
async function readForm(request: Request): Promise<URLSearchParams | undefined> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) return undefined;
  const body = await readBody(request, MAX_FORM_BYTES);
  return typeof body === 'string' ? new URLSearchParams(body) : undefined;
}

/**
 * Adds the OpenID Connect routes. GET /sign-in/oidc is a page of this origin that makes (once per tab) a random binding
 * kept in its sessionStorage and POSTs it back: the flow (PKCE verifier, nonce, state, binding) is sealed into a Lax
 * cookie, nothing is stored, and the browser goes to the provider. GET /sign-in/callback is a page that POSTs the code
 * and state with the tab's binding: the cookie's flow must hold the same state and binding. `originOf` is the public
 * origin the person reaches the server at, which the redirect URI and Secure follow.
 */
export function addSignInRoutes(
  app: InboxApp,
  people: LoopbackTokenAuth,
  signIn: PersonSignIn,
  originOf: (c: Context<{ Bindings: InboxBindings }>) => string,
): void {
  app.get(
    '/sign-in/flow.js',
    () => new Response(FLOW_SCRIPT, { headers: { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8' } }),
  );
  app.get('/sign-in/oidc', () => html(START_PAGE));

  app.post('/sign-in/oidc', async (c) => {
    const origin = originOf(c);
    const binding = fromOwnPage(c, origin) ? (await readForm(c.req.raw))?.get('binding') : undefined;
    if (!binding || !BINDING.test(binding)) return page(400, 'Sign in from the inbox page of this server.');
    const state = toBase64Url(randomBytes(32));
    let started: Awaited<ReturnType<PersonSignIn['begin']>>;
    try {
      started = await signIn.begin(state, origin + CALLBACK_PATH);
    } catch {
      return page(503, 'The identity provider cannot be reached right now. Try again in a moment.', RETRY);
    }
    const sealed = await people.sealSignIn(started.flow, state, binding);
    return new Response(null, {
      status: 303,
      headers: { location: started.url, 'set-cookie': flowCookie(sealed, origin, FLOW_TTL_S), 'cache-control': 'no-store' },
    });
  });

  app.get('/sign-in/callback', (c) => {
    if (c.req.query('error') !== undefined) return page(401, 'The identity provider did not sign you in. Open the inbox to try again.');
    if (!c.req.query('state') || !c.req.query('code'))
      return page(400, 'This sign-in link is incomplete. Open the inbox to sign in again.');
    return html(FINISH_PAGE);
  });

  app.post('/sign-in/callback', async (c) => {
    const origin = originOf(c);
    // Every answer ends the flow: its cookie is spent, whatever happens next.
    const spent: [string, string] = ['set-cookie', flowCookie('', origin, 0)];
    const form = fromOwnPage(c, origin) ? await readForm(c.req.raw) : undefined;
    const field = (name: string) => form?.get(name) ?? '';
    const [state, code, binding] = [field('state'), field('code'), field('binding')];
    // The flow must be the one this browser tab started: its cookie's state, and the binding only this origin's page holds.
    const flow =
      state && code && binding
        ? await people.openSignIn(readCookie(c.req.header('cookie') ?? null, flowCookieOf(origin).name), state, binding)
        : undefined;
    if (!flow) return page(400, 'This sign-in was not started in this browser, or it is over. Open the inbox to sign in again.', [spent]);
    let subject: string;
    try {
      subject = await signIn.finish(code, flow, origin + CALLBACK_PATH);
    } catch (error) {
      if (error instanceof SignInRefusedError) return page(401, `Sign-in refused: ${error.message}. Open the inbox to try again.`, [spent]);
      return page(503, 'The identity provider cannot be reached right now. Open the inbox to try again.', [...RETRY, spent]);
    }
    return page(200, '', [['set-cookie', sessionCookie(await people.openSession(subject), origin)], spent]);
  });
}
