// parley token signs a dev HS256 token that a server with auth: { secret } accepts as that caller; never in production.
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { App, createFetchHandler, Tool, ToolContext } from 'parley-mcp';
import { runToken } from '../../src/cli/token';
import { mcpRequest, read } from '../helpers/requests';

const SECRET = 'a-dev-secret-that-is-long-enough-0123456789';

@Tool({ name: 'whoami', inputSchema: {} })
class WhoAmI extends ToolContext {
  execute() {
    return this.auth.user.sub;
  }
}

@App({ id: 'who', tools: [WhoAmI] })
class Who {}

const handler = createFetchHandler({
  info: { name: 'who', version: '1' },
  apps: [Who],
  auth: { secret: SECRET, issuer: 'dev' },
  logging: { level: 'error' },
});

async function token(args: string[], env: Record<string, string | undefined> = {}) {
  const out = { stdout: '', stderr: '' };
  const code = await runToken(args, {
    stdout: { write: (t: string) => (out.stdout += t) },
    stderr: { write: (t: string) => (out.stderr += t) },
    env,
  });
  return { code, ...out };
}

const whoami = async (bearer: string) =>
  read(await handler(mcpRequest('tools/call', { name: 'whoami', arguments: {} }, { headers: { authorization: `Bearer ${bearer}` } })));

describe('parley token', () => {
  it('signs a token the server takes as --sub, with the secret from AUTH_SECRET', async () => {
    const { code, stdout } = await token(['--sub', 'alice', '--iss', 'dev'], { AUTH_SECRET: SECRET });
    expect(code).toBe(0);
    const { status, body } = await whoami(stdout.trim());
    expect(status).toBe(200);
    expect(body.result.content[0].text).toBe('alice');
  });

  it('--secret wins over AUTH_SECRET; a token signed with another secret is refused (401)', async () => {
    const good = await token(['--sub', 'bob', '--iss', 'dev', '--secret', SECRET], {
      AUTH_SECRET: 'another-secret-entirely-0123456789abcdef',
    });
    expect((await whoami(good.stdout.trim())).body.result.content[0].text).toBe('bob');
    const bad = await token(['--sub', 'bob', '--iss', 'dev'], { AUTH_SECRET: 'another-secret-entirely-0123456789abcdef' });
    expect((await whoami(bad.stdout.trim())).status).toBe(401);
  });

  it('signs a standard HS256 JWT that another library verifies: its claims, header and lifetime', async () => {
    const { stdout } = await token(['--sub', 'alice', '--iss', 'dev', '--aud', 'https://mcp.example/mcp', '--expires', '2h'], {
      AUTH_SECRET: SECRET,
    });
    const { payload, protectedHeader } = await jwtVerify(stdout.trim(), new TextEncoder().encode(SECRET), { algorithms: ['HS256'] });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: 'alice', iss: 'dev', aud: 'https://mcp.example/mcp' });
    expect(payload.exp! - payload.iat!).toBe(7200);
    const bare = await token(['--sub', 'bob', '--expires', '1d'], { AUTH_SECRET: SECRET });
    const claims = (await jwtVerify(bare.stdout.trim(), new TextEncoder().encode(SECRET))).payload;
    expect(Object.keys(claims).sort()).toEqual(['exp', 'iat', 'sub']);
    expect(claims.exp! - claims.iat!).toBe(86_400);
  });

  it('refuses in production, and prints no token', async () => {
    const { code, stdout, stderr } = await token(['--sub', 'alice'], { AUTH_SECRET: SECRET, NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('refused: NODE_ENV=production');
  });

  it('needs --sub and a secret, and a sane --expires', async () => {
    // Exit code 1 for each, as docs/cli.md says of every command that fails.
    expect(await token([], { AUTH_SECRET: SECRET })).toMatchObject({ code: 1, stderr: expect.stringContaining('--sub is required') });
    expect(await token(['--sub', 'a'], {})).toMatchObject({ code: 1, stderr: expect.stringContaining('no secret') });
    expect((await token(['--sub', 'a', '--expires', 'forever'], { AUTH_SECRET: SECRET })).code).toBe(1);
    expect((await token(['--sub', 'a', '--nope'], { AUTH_SECRET: SECRET })).code).toBe(1);
  });

  it('an expired token is refused', async () => {
    const { stdout } = await token(['--sub', 'alice', '--iss', 'dev', '--expires', '0s'], { AUTH_SECRET: SECRET });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await whoami(stdout.trim())).status).toBe(401);
  });
});
