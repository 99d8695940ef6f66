// parley idp's provider: oidc-provider (an optional peer, loaded here only) configured as Parley and the official
// clients need it: dynamic registration, PKCE, resource indicators with ES256 JWT access tokens for the resource,
// scopes a client can step up to, a confidential client for inbox sign-in, and named people. Development only.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { interactionRoutes, PEOPLE, type InteractionProvider } from './idp-sign-in';

/** The inbox's client at the provider, and its secret: fixed, and printed, because this provider is for development. */
export const INBOX_CLIENT = { id: 'parley-inbox', secret: 'parley-inbox-development-secret' };

interface DevIdpOptions {
  port: number;
  /** Scopes a resource may grant (beside openid and offline_access). */
  scopes: string[];
  /** The MCP servers' origins, for the inbox client's redirect URIs. */
  servers: string[];
}

interface DevIdp {
  issuer: string;
  close(): Promise<void>;
}

// The little of oidc-provider this uses: it ships no types, and the package never imports it statically.
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => InteractionProvider & {
  callback(): (request: IncomingMessage, response: ServerResponse) => void;
};

// A variable, so neither tsc nor the build resolves it: a user without the package gets the line below, not a stack.
const OIDC_PROVIDER = 'oidc-provider';

async function loadProvider(): Promise<ProviderClass> {
  try {
    return ((await import(OIDC_PROVIDER)) as { default: ProviderClass }).default;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // Only the package itself missing: a dependency of it that is missing says so in its own words.
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String(error).includes(`'${OIDC_PROVIDER}'`);
    if (!missing) throw error;
    throw new Error('needs the oidc-provider package, which is not installed: run npm install -D oidc-provider');
  }
}

/** An ES256 signing key as a private JWK, new on every start: tokens of an earlier run no longer verify. */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid: `dev-${randomBytes(4).toString('hex')}`, alg: 'ES256', use: 'sig' };
}

function configuration(options: DevIdpOptions): Record<string, unknown> {
  const scope = options.scopes.join(' ');
  return {
    clients: [
      {
        client_id: INBOX_CLIENT.id,
        client_secret: INBOX_CLIENT.secret,
        // The inbox sends its secret as HTTP Basic (client_secret_basic) and asks for openid alone.
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: options.servers.map((origin) => `${origin}/_frontmcp/sign-in/callback`),
        scope: 'openid',
      },
    ],
    jwks: { keys: [signingKey()] },
    clientDefaults: { id_token_signed_response_alg: 'ES256' },
    scopes: ['openid', 'offline_access', ...options.scopes],
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false }, // its page takes any name and any password; this one names the people
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // A token for the resource the client named (RFC 8707), with that resource as its audience.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope,
          audience: resource,
          accessTokenTTL: 3600,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
    findAccount: (_ctx: unknown, sub: string) => (PEOPLE.includes(sub) ? { accountId: sub, claims: async () => ({ sub }) } : undefined),
    cookies: { keys: [randomBytes(32).toString('hex')] },
    // A sign-in page open ten minutes, a person signed in (and what they allowed) for a working day.
    ttl: { Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
  };
}

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Starts the provider on 127.0.0.1. oidc-provider holds a registered client to the scopes it registered with, and the
 * official v2 client registers with the first challenge's scope, so it could never step up: a registration here loses
 * its `scope` on the way in (many providers do not hold clients so). An authorization request with no scope asks
 * openid (below). The rest reaches oidc-provider as sent.
 */
export async function startDevIdp(options: DevIdpOptions): Promise<DevIdp> {
  const Provider = await loadProvider();
  let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
  // oidc-provider reads the body itself: a registration rewritten goes to it through a listener of its own.
  const inner = createServer((request, response) => handle(request, response));
  const innerPort = await listen(inner, 0);
  const outer = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/reg') void withoutScope(request, response, innerPort);
    else handle(request, response);
  });
  let port: number;
  try {
    port = await listen(outer, options.port);
  } catch (error) {
    await closing(inner);
    throw error;
  }
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, configuration(options));
  const callback = provider.callback();
  const signIn = interactionRoutes(provider);
  handle = (request, response) => {
    if (request.url?.startsWith('/interaction/')) return void signIn(request, response);
    if (request.method === 'GET' && request.url?.startsWith('/auth?')) request.url = withScope(request.url);
    callback(request, response);
  };
  return { issuer, close: async () => void (await Promise.all([closing(outer), closing(inner)])) };
}

/**
 * An authorization request that asks no scope (a client of a server with no requiredScopes, whose challenge names
 * none) asks openid: oidc-provider refuses a request that would grant no scope at all (access_denied), and the
 * person's identity is what such a client wants.
 */
function withScope(path: string): string {
  const url = new URL(path, 'http://idp');
  if (url.searchParams.get('scope')) return path;
  url.searchParams.set('scope', 'openid');
  return `${url.pathname}${url.search}`;
}

async function withoutScope(request: IncomingMessage, response: ServerResponse, innerPort: number): Promise<void> {
  try {
    let body = '';
    for await (const chunk of request) {
      body += chunk;
      if (body.length > 56 * 1024) throw new Error('too large'); // oidc-provider's own limit on a body
    }
    const metadata = JSON.parse(body) as unknown;
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new Error('not an object');
    delete (metadata as Record<string, unknown>).scope;
    const answer = await fetch(`http://127.0.0.1:${innerPort}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    response.end(await answer.text());
  } catch {
    response.writeHead(400, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: 'invalid_client_metadata', error_description: 'the body must be a JSON object of at most 56 KiB' }),
    );
  }
}
