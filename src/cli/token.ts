// parley token --sub alice: an HS256 bearer token for a server with `auth: { secret }`, for trying it out. Dev only.
import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';

export const TOKEN_USAGE = `Usage: parley token --sub <subject> [--secret <secret>] [--iss <issuer>] [--aud <audience>] [--expires 1h]

Prints an HS256 JWT for a server with auth: { secret } (the inbox example: AUTH_SECRET). The secret is --secret, else
AUTH_SECRET; --expires takes 30m, 1h, 7d (default 1h). Send it as "Authorization: Bearer <token>".
For development only: refused when NODE_ENV=production (a production server's callers get tokens from its issuer).`;

interface TokenIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

/** Runs the command; resolves with the exit code. */
export async function runToken(
  argv: string[],
  io: TokenIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const fail = (message: string) => (io.stderr.write(`parley token: ${message}\n`), 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        sub: { type: 'string' },
        secret: { type: 'string' },
        iss: { type: 'string' },
        aud: { type: 'string' },
        expires: { type: 'string', default: '1h' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    return fail(`${(error as Error).message}\n${TOKEN_USAGE}`);
  }
  if (values.help) return (io.stdout.write(`${TOKEN_USAGE}\n`), 0);
  if (io.env.NODE_ENV === 'production') return fail('refused: NODE_ENV=production. This command signs development tokens only');
  if (!values.sub) return fail(`--sub is required (the caller's subject, e.g. --sub alice)\n${TOKEN_USAGE}`);
  const secret = values.secret ?? io.env.AUTH_SECRET;
  if (!secret) return fail("no secret: pass --secret, or set AUTH_SECRET to the server's auth.secret");
  if (!/^\d+\s*[smhdw]$/.test(values.expires)) return fail(`--expires must be like 30m, 1h or 7d, not ${values.expires}`);
  let jwt = new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(values.sub)
    .setIssuedAt()
    .setExpirationTime(values.expires);
  if (values.iss) jwt = jwt.setIssuer(values.iss);
  if (values.aud) jwt = jwt.setAudience(values.aud);
  io.stdout.write(`${await jwt.sign(new TextEncoder().encode(secret))}\n`);
  return 0;
}
