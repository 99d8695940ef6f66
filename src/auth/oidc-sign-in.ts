// People sign in to the inbox with OpenID Connect (`http.auth.oidc`): the authorization code flow with PKCE at the
// issuer the server already trusts, ending in the subject the person's agents file questions under. Both sides are
// here: the routes that send the browser to the provider and take it back, and the provider's side (its metadata, the
// code exchange, the ID token). Loaded by app/ only where http.auth.oidc is set: on Node as it is, on the edge (a
// Worker's inbox) once the entry calls enableOidcSignIn(), so an inbox whose people sign in with codes does not carry it.
import { randomBytes, sha256, toBase64Url } from '../crypto';
import { questionSubjectOf } from '../model';
import { INBOX_BASE, readBody, type RouteContext } from '../protocol';
import type { Logger } from '../runtime';
import { discoverIssuer } from './discovery';
import { IDP_TIMEOUT_MS, IdpUnavailableError, readIdpJson } from './idp-fetch';
import { JWKS_ALGORITHMS, remoteKeySet } from './jwks';
import { verifyJwt } from './jwt';
import {
  cookie,
  type InboxApp,
  type InboxBindings,
  type OidcOptions,
  type OriginOf,
  type PersonSignIn,
  readCookie,
  sessionCookie,
  type SignInSessions,
  SignInRefusedError,
} from './sign-in';

const FLOW_COOKIE = 'parley_sign_in';
const FLOW_TTL_S = 600;
const SIGN_IN = `${INBOX_BASE}/sign-in`;
const CALLBACK_PATH = `${SIGN_IN}/callback`;
const BINDING = /^[0-9a-f]{64}$/;
const MAX_FORM_BYTES = 4096;

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
function fromOwnPage(c: RouteContext<InboxBindings>, origin: string): boolean {
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
function addRoutes(app: InboxApp, people: SignInSessions, signIn: Pick<PersonSignIn, 'begin' | 'finish'>, originOf: OriginOf): void {
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
    let person: Awaited<ReturnType<PersonSignIn['finish']>>;
    try {
      person = await signIn.finish(code, flow, origin + CALLBACK_PATH);
    } catch (error) {
      if (error instanceof SignInRefusedError) return page(401, `Sign-in refused: ${error.message}. Open the inbox to try again.`, [spent]);
      return page(503, 'The identity provider cannot be reached right now. Open the inbox to try again.', [...RETRY, spent]);
    }
    return page(200, '', [['set-cookie', sessionCookie(await people.openSession(person.subject, person.claims), origin)], spent]);
  });
}

/** The scopes a sign-in asks for: `http.auth.oidc.scope`, with `openid` always among them. */
const scopeOf = (scope = 'openid') => (scope.split(' ').includes('openid') ? scope : `openid ${scope}`);

/** Sign-in at `issuer` for the inbox's client; the provider's metadata and keys are read on first use. */
export function createPersonSignIn(oidc: OidcOptions, issuer: string, logger: Logger): PersonSignIn {
  let metadata: ReturnType<typeof discoverIssuer> | undefined;
  const endpoints = () =>
    (metadata ??= discoverIssuer(issuer).catch((error: unknown) => {
      metadata = undefined; // tried again by the next sign-in
      throw error;
    }));
  const keys = remoteKeySet(async () => new URL((await endpoints()).jwks_uri));
  const outage = (error: unknown): never => {
    logger.error(`Inbox sign-in at ${issuer} failed: ${(error as Error).message}`);
    throw error;
  };
  const endpoint = (found: Record<string, unknown>, name: string): string => {
    const url = found[name];
    if (typeof url !== 'string' || !URL.canParse(url)) throw new IdpUnavailableError(`The issuer metadata of ${issuer} has no ${name}`);
    return url;
  };

  const signIn: PersonSignIn = {
    async begin(state, redirectUri) {
      const found = await endpoints().catch(outage);
      const verifier = toBase64Url(randomBytes(32));
      const nonce = toBase64Url(randomBytes(16));
      const url = new URL(endpoint(found, 'authorization_endpoint'));
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: oidc.clientId,
        redirect_uri: redirectUri,
        scope: scopeOf(oidc.scope),
        state,
        nonce,
        code_challenge: toBase64Url(await sha256(verifier)),
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(name, value);
      return { url: url.href, flow: { verifier, nonce } };
    },

    async finish(code, flow, redirectUri) {
      const tokenUrl = endpoint(await endpoints().catch(outage), 'token_endpoint');
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: flow.verifier });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      // client_secret_basic (RFC 6749 §2.3.1: each part form-encoded first); a public client names itself in the form.
      if (oidc.clientSecret !== undefined)
        headers.authorization = `Basic ${btoa(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(oidc.clientSecret)}`)}`;
      else form.set('client_id', oidc.clientId);
      let answer: Response;
      try {
        answer = await fetch(tokenUrl, {
          method: 'POST',
          headers,
          body: form,
          redirect: 'manual', // not followed: a 3xx is the provider's outage below (workerd has no 'error')
          signal: AbortSignal.timeout(IDP_TIMEOUT_MS),
        });
      } catch (error) {
        return outage(new IdpUnavailableError(`The token endpoint could not be reached: ${(error as Error).message}`));
      }
      const body = (await readIdpJson(answer).catch(() => undefined)) as { id_token?: unknown; error?: unknown } | undefined;
      // 400 and 401 are the provider refusing this code or this client (RFC 6749 §5.2); anything else is its outage.
      if (answer.status === 400 || answer.status === 401)
        throw new SignInRefusedError(`the identity provider refused the code (${String(body?.error ?? answer.status)})`);
      if (!answer.ok || typeof body?.id_token !== 'string')
        return outage(new IdpUnavailableError(`The token endpoint answered ${answer.status} without an ID token`));
      let claims: Record<string, unknown>;
      try {
        // As a bearer token is checked, and the ID token's audience must be this client; no sub is refused below.
        claims = await verifyJwt(body.id_token, keys, { algorithms: JWKS_ALGORITHMS, issuer, audience: oidc.clientId });
      } catch (error) {
        if (error instanceof IdpUnavailableError) return outage(error);
        throw new SignInRefusedError('the ID token could not be verified');
      }
      if (claims.nonce !== flow.nonce) throw new SignInRefusedError('the ID token is not for this sign-in (nonce)');
      const subject = questionSubjectOf({ user: { sub: claims.sub as string, iss: issuer } });
      if (!subject) throw new SignInRefusedError('the ID token has no subject');
      return { subject, claims };
    },
    addRoutes: (app, people, originOf) => addRoutes(app, people, signIn, originOf),
  };
  return signIn;
}
