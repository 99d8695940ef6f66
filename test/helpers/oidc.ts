// A real OpenID provider (oidc-provider, a certified implementation) on loopback for sign-in tests: dynamic client
// registration, authorization code with PKCE, client credentials, resource indicators with JWT access tokens. Its
// login and consent pages are the package's development ones, driven with plain HTTP by `authorize()`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider from 'oidc-provider';

export const MACHINE = { id: 'nightly-report', secret: 'a-client-secret-for-tests-only-0123456789' };
/** The MCP server's own credentials, for token introspection. */
export const RESOURCE_SERVER = { id: 'parley-desk', secret: 'another-client-secret-for-tests-only-98765' };

export interface TestIdp {
  issuer: string;
  /** Signs with a new key (a new kid) from now on, as a provider rotating its keys does. */
  rotateKey(): Promise<void>;
  /** While down, every request to the provider gets 503. */
  setDown(down: boolean): void;
  /** A client-credentials access token for `resource`. */
  machineToken(resource: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
}

/** What a person's ID token says of them besides `sub`, by their login: `email`, `email_verified`, `groups`, `roles`. */
export type Accounts = ReadonlyMap<string, Record<string, unknown>>;

/**
 * Starts the provider; `scopes` are those a resource may grant; access tokens are JWTs, or opaque (introspected).
 * With `accounts`, it releases their claims under the scopes `email`, `groups` and `roles`, in the ID token itself
 * (as Entra ID, Okta and Keycloak can be set to), and in access tokens (`extraTokenClaims`).
 */
export async function startIdp(
  scopes = ['tickets:read', 'tickets:write'],
  accessTokenFormat: 'jwt' | 'opaque' = 'jwt',
  accounts?: Accounts,
): Promise<TestIdp> {
  let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  let down = false;
  // The provider itself listens on a port of its own; clients reach it through `server`, which can take it down and
  // rewrites one thing: oidc-provider holds a registered client to the scopes it registered with, and the SDK registers
  // with the first challenge's scope, so a client could never step up. Many providers do not hold clients so; here a
  // registration loses its `scope` on the way in.
  const inner: Server = createServer((request, response) => handle(request, response));
  await new Promise<void>((resolve) => inner.listen(0, '127.0.0.1', resolve));
  const innerUrl = `http://127.0.0.1:${(inner.address() as AddressInfo).port}`;
  const server: Server = createServer(async (request, response) => {
    if (down) return response.writeHead(503).end();
    if (request.method !== 'POST' || request.url !== '/reg') return handle(request, response);
    let body = '';
    for await (const chunk of request) body += chunk;
    const { scope: _dropped, ...metadata } = JSON.parse(body) as Record<string, unknown>;
    const answer = await fetch(`${innerUrl}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
    response
      .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
      .end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let generation = 0;
  const build = async () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: MACHINE.id,
          client_secret: MACHINE.secret,
          grant_types: ['client_credentials'],
          redirect_uris: [],
          response_types: [],
          scope: scopes.join(' '),
        },
        { client_id: RESOURCE_SERVER.id, client_secret: RESOURCE_SERVER.secret, grant_types: [], redirect_uris: [], response_types: [] },
      ],
      jwks: { keys: [await signingKey(`key-${++generation}`)] },
      clientDefaults: { id_token_signed_response_alg: 'ES256' },
      scopes: ['openid', 'offline_access', ...scopes, ...(accounts ? ['email', 'groups', 'roles'] : [])],
      ...(accounts
        ? {
            claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'], roles: ['realm_access'] },
            conformIdTokenClaims: false,
            extraTokenClaims: (_ctx: unknown, token: { accountId?: string }) => {
              const { groups } = (token.accountId !== undefined && accounts.get(token.accountId)) || {};
              return groups === undefined ? undefined : { groups };
            },
          }
        : {}),
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: true },
        registration: { enabled: true },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => ({
            scope: scopes.join(' '),
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat,
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
      },
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ ...accounts?.get(sub), sub }) }),
      cookies: { keys: ['a-cookie-key-for-tests-only'] },
    });
    handle = provider.callback();
  };
  await build();
  return {
    issuer,
    rotateKey: build,
    setDown: (value) => {
      down = value;
    },
    async machineToken(resource, scope = scopes.join(' ')) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${btoa(`${MACHINE.id}:${MACHINE.secret}`)}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => inner.close(resolve));
    },
  };
}

/**
 * What a person's browser does between the client's authorization URL and its redirect URI: signs in as `login` on
 * the provider's login page, consents, and follows the redirects. Resolves with the callback URL's parameters.
 */
export async function authorize(authorizationUrl: URL, redirectUri: string, login: string): Promise<URLSearchParams> {
  const jar = new Map<string, string>();
  let url = authorizationUrl.href;
  let form: string | undefined;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form,
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(redirectUri)) return next.searchParams;
      url = next.href;
      form = undefined;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`The provider showed no form (${response.status}): ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    form = prompt === 'login' ? new URLSearchParams({ prompt, login, password: 'any' }).toString() : `prompt=${prompt}`;
  }
  throw new Error('The sign-in did not reach the redirect URI');
}
