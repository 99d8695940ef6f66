// Every error that is not JSON-RPC has one shape, `{ error, message }`: a word a program tests and a sentence a person
// acts on. The metadata route's 405 said a bare `{ error: 'method_not_allowed' }` (#35).
import { describe, expect, it } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { read } from '../helpers/requests';

const info = { name: 'bodies', version: '1.0.0' };

describe('the errors that are not JSON-RPC', () => {
  it('answer a method the metadata route does not serve with 405 in the one shape, naming the methods it does', async () => {
    // The metadata is public and read from config alone: no token is checked, so the JWKS URL is never fetched.
    const handler = createFetchHandler({ info, auth: { jwksUrl: 'http://127.0.0.1:9/jwks', issuer: 'https://idp.example' } } as never);
    const response = await handler(new Request('http://127.0.0.1/.well-known/oauth-protected-resource/mcp', { method: 'POST' }));
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await read(response)).toEqual({
      status: 405,
      body: { error: 'method_not_allowed', message: 'Method not allowed: use GET, HEAD, OPTIONS' },
    });
  });

  it("answer the authorization server's metadata mirror the same way, and its failure to read the issuer's", async () => {
    // Nothing listens on port 9: the issuer's document cannot be read, so the mirror says so, in the one shape.
    const handler = createFetchHandler({ info, auth: { jwksUrl: 'http://127.0.0.1:9/jwks', issuer: 'http://127.0.0.1:9' } } as never);
    const url = 'http://127.0.0.1/.well-known/oauth-authorization-server';
    expect(await read(await handler(new Request(url, { method: 'POST' })))).toEqual({
      status: 405,
      body: { error: 'method_not_allowed', message: 'Method not allowed: use GET, HEAD' },
    });
    expect(await read(await handler(new Request(url)))).toEqual({
      status: 503,
      body: { error: 'temporarily_unavailable', message: "The authorization server's metadata could not be read; try again shortly" },
    });
  });
});
