// Signing in at `parley idp` as a user's client and browser do, without a browser: an OAuth client that keeps what a
// desktop app keeps, and the person's trip through the provider's sign-in page (a person picked there).
import type { OAuthClientProvider } from '@modelcontextprotocol/client';

export const REDIRECT = 'http://127.0.0.1:9/callback'; // never reached: signIn() (and oidc.ts's authorize()) stop at it

/**
 * What the person's browser does between the client's authorization URL and its redirect URI: follows the provider's
 * redirects, picks `person` on its sign-in page. Resolves with the callback's parameters.
 */
export async function signIn(authorizationUrl: URL, person: string): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  let url = authorizationUrl.href;
  let form: string | undefined;
  for (let step = 0; step < 10; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    form = undefined;
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(REDIRECT)) return next.searchParams;
      url = next.href;
      continue;
    }
    const html = await response.text();
    const action = new RegExp(`<form method="post" action="([^"]+)"><input type="hidden" name="login" value="${person}">`).exec(html)?.[1];
    if (!action) throw new Error(`no sign-in for ${person} (${response.status}): ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    form = `login=${person}`;
  }
  throw new Error('the sign-in did not reach the redirect URI');
}

/** An OAuth client as a desktop app keeps one: what it registered, its tokens, the PKCE verifier, where it would send the person. */
export class AppOAuth implements OAuthClientProvider {
  registered?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  saved?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  verifier = '';
  sentTo: URL[] = [];
  readonly redirectUrl = REDIRECT;
  readonly clientMetadata = {
    client_name: 'parley-oauth-test',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation = () => this.registered;
  saveClientInformation = (info: NonNullable<AppOAuth['registered']>) => void (this.registered = info);
  tokens = () => this.saved;
  saveTokens = (tokens: NonNullable<AppOAuth['saved']>) => void (this.saved = tokens);
  redirectToAuthorization = (url: URL) => void this.sentTo.push(url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
}
