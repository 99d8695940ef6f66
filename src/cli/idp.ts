// parley idp: a real OpenID provider on loopback for trying sign-in (docs/auth.md starts from it). Development only.
import { parseArgs } from 'node:util';
import { INBOX_CLIENT, startDevIdp } from './idp-provider';
import { PEOPLE } from './idp-sign-in';

const IDP_USAGE = `Usage: parley idp [--port 9400] [--scopes tickets:read,tickets:write] [--server http://127.0.0.1:3000 ...]

Runs an OpenID provider (oidc-provider, which you install: npm install -D oidc-provider) on 127.0.0.1 for development
only, and prints what to put in the server's config. Clients register themselves, sign in with PKCE and get ES256 JWT
access tokens for the resource they name, holding the --scopes they asked for (asked again, more: step-up). People
pick ${PEOPLE.join(' or ')} on its sign-in page, no password. The inbox signs people in as the client ${INBOX_CLIENT.id},
whose redirect URIs are each --server's /_frontmcp/sign-in/callback (default http://127.0.0.1:3000 and
http://localhost:3000). Everything is kept in memory: a restart forgets registrations, sign-ins and signing keys.`;

interface IdpIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Resolves when the provider should stop (SIGINT or SIGTERM by default). */
  stopped?: Promise<unknown>;
}

const signals = () => new Promise((resolve) => process.once('SIGINT', resolve).once('SIGTERM', resolve));

/** What the user writes in the server's config, as the provider runs. */
function instructions(issuer: string, scopes: string[], servers: string[]): string {
  const list = scopes.map((s) => `'${s}'`).join(', ');
  return [
    `parley idp: an OpenID provider for development only, at ${issuer}`,
    `  people        ${PEOPLE.join(', ')}: picked on its sign-in page, no password`,
    '  clients       register themselves (dynamic registration); PKCE required; a token names its resource (RFC 8707)',
    `  scopes        ${scopes.join(' ')}, in ES256 JWT access tokens whose audience is the resource; asked again, more`,
    `  inbox client  ${INBOX_CLIENT.id} (secret ${INBOX_CLIENT.secret}), back to ${servers.map((s) => `${s}/_frontmcp/sign-in/callback`).join(', ')}`,
    '',
    "In the server's config:",
    `  auth: { issuer: '${issuer}', requiredScopes: ['${scopes[0]}'], scopesSupported: [${list}] },`,
    '  // people signing in to the inbox (with elicitation: { enabled: true, persistent: … }):',
    `  http: { auth: { oidc: { clientId: '${INBOX_CLIENT.id}', clientSecret: '${INBOX_CLIENT.secret}' } } },`,
    '',
    'Ctrl-C stops it.',
    '',
  ].join('\n');
}

/** Runs the command until it is stopped; resolves with the exit code. */
export async function runIdp(
  argv: string[],
  io: IdpIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const fail = (message: string) => (io.stderr.write(`parley idp: ${message}\n`), 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '9400' },
        scopes: { type: 'string', default: 'tickets:read,tickets:write' },
        server: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return fail(`${(error as Error).message}\n${IDP_USAGE}`);
  }
  if (values.help) return (io.stdout.write(`${IDP_USAGE}\n`), 0);
  if (io.env.NODE_ENV === 'production') return fail('refused: NODE_ENV=production. This provider is for development only');
  if (!/^\d{1,5}$/.test(values.port) || Number(values.port) > 65_535)
    return fail(`--port must be a port number (0 for any free one), not ${values.port}`);
  const scopes = values.scopes
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (scopes.length === 0 || scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)))
    return fail(`--scopes takes scope names separated by commas, such as tickets:read,tickets:write; not ${values.scopes}`);
  const servers: string[] = [];
  for (const server of values.server ?? ['http://127.0.0.1:3000', 'http://localhost:3000']) {
    const url = URL.canParse(server) ? new URL(server) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return fail(`--server takes the MCP server's origin, such as http://127.0.0.1:3000; not ${server}`);
    servers.push(url.origin);
  }
  let idp;
  try {
    idp = await startDevIdp({ port: Number(values.port), scopes, servers });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') return fail(`port ${values.port} is in use: pass --port <another>, or --port 0 for any free one`);
    return fail((error as Error).message);
  }
  io.stderr.write(instructions(idp.issuer, scopes, servers));
  await (io.stopped ?? signals());
  await idp.close();
  return 0;
}
