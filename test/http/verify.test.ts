// Callers verified some other way: auth.verify (API keys, opaque tokens), a host's caller in the official SDK's
// AuthInfo shape, and RFC 7662 introspection (parley-mcp/introspection) against a real OpenID provider's endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler, IdpUnavailableError, type SdkAuthInfo } from 'parley-mcp';
import { introspection } from 'parley-mcp/introspection';
import { MACHINE, RESOURCE_SERVER, startIdp, type TestIdp } from '../helpers/oidc';
import { mcpRequest, read } from '../helpers/requests';
import { Who } from '../helpers/whoami';

const RESOURCE = 'http://127.0.0.1/mcp';
const whoami = (token?: string) =>
  mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const server = (auth: Record<string, unknown>) =>
  createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [Who], logger: quiet, auth } as never);
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('auth.verify', () => {
  const keys = new Map([
    ['key-nightly', { token: 'key-nightly', clientId: 'nightly', scopes: ['reports'], extra: { team: 'ops' } } satisfies SdkAuthInfo],
    ['key-nour', { user: { sub: 'nour' }, scopes: ['tickets:read'] }],
  ]);
  const handler = server({
    issuer: 'https://idp.example',
    verify: (token: string) => {
      if (token === 'key-outage') throw new IdpUnavailableError('the key service is down');
      if (token === 'key-bug') throw new TypeError('a bug in the check');
      if (token === 'key-expired') return { token, clientId: 'old', scopes: [], expiresAt: Math.floor(Date.now() / 1000) - 1 };
      return keys.get(token);
    },
  });

  it("takes the callers it returns, in the SDK's shape or Parley's", async () => {
    const nightly = await read(await handler(whoami('key-nightly')));
    expect(nightly.body.result.structuredContent).toEqual({ sub: 'nightly', clientId: 'nightly', scopes: ['reports'] });
    const nour = await read(await handler(whoami('key-nour')));
    expect(nour.body.result.structuredContent).toEqual({ sub: 'nour', clientId: null, scopes: ['tickets:read'] });
  });

  it('refuses an unknown key, an expired one and a check that throws with 401; an outage with 503', async () => {
    for (const token of ['key-unknown', 'key-expired', 'key-bug', undefined]) {
      const response = await handler(whoami(token));
      expect(response.status, String(token)).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
    }
    expect((await handler(whoami('key-outage'))).status).toBe(503);
  });

  it("takes a host's caller in the official SDK's AuthInfo shape, subject from extra.sub", async () => {
    const open = createFetchHandler({ info: { name: 'desk', version: '1.0.0' }, apps: [Who] });
    const auth: SdkAuthInfo = {
      token: 't',
      clientId: 'claude',
      scopes: ['tickets:read'],
      extra: { sub: 'priya' },
      resource: new URL(RESOURCE),
    };
    const { body } = await read(await open(whoami(), { auth }));
    expect(body.result.structuredContent).toEqual({ sub: 'priya', clientId: 'claude', scopes: ['tickets:read'] });
  });
});

describe('parley-mcp/introspection, against a real provider', () => {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await startIdp(['tickets:read'], 'opaque');
  });
  afterAll(() => idp.close());

  const introspected = (extra: Record<string, unknown> = {}) =>
    server({
      issuer: idp.issuer,
      verify: introspection({
        url: `${idp.issuer}/token/introspection`,
        clientId: RESOURCE_SERVER.id,
        clientSecret: RESOURCE_SERVER.secret,
        ...extra,
      }),
    });

  it('takes an active opaque token as its client, and refuses a made-up one and one for another resource', async () => {
    const handler = introspected();
    const token = await idp.machineToken(RESOURCE);
    expect(token.split('.')).toHaveLength(1); // opaque, not a JWT
    const { status, body } = await read(await handler(whoami(token)));
    expect(status).toBe(200);
    expect(body.result.structuredContent).toEqual({ sub: MACHINE.id, clientId: MACHINE.id, scopes: ['tickets:read'] });
    expect((await handler(whoami('not-a-token-the-provider-issued'))).status).toBe(401);
    expect((await handler(whoami(await idp.machineToken('https://other.example/mcp')))).status).toBe(401);
  });

  it('answers 503 while the endpoint is down; wrong credentials at the endpoint are an outage too, not a bad token', async () => {
    const token = await idp.machineToken(RESOURCE);
    idp.setDown(true);
    try {
      expect((await introspected()(whoami(token))).status).toBe(503);
    } finally {
      idp.setDown(false);
    }
    expect((await introspected({ clientSecret: 'wrong' })(whoami(token))).status).toBe(503);
  });
});
