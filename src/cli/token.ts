// parley token --sub alice: an HS256 bearer token for a server with `auth: { secret }`, for trying it out. Dev only.
import { parseArgs } from 'node:util';
import { hmac, importHmacKey, toBase64Url, utf8 } from '../crypto';

const TOKEN_USAGE = `Usage: parley token --sub <subject> [--secret <secret>] [--iss <issuer>] [--aud <audience>] [--expires 1h]

Prints an HS256 JWT for a server with auth: { secret } (the inbox example: AUTH_SECRET). The secret is --secret, else
AUTH_SECRET; --expires takes 30m, 1h, 7d (default 1h). Send it as "Authorization: Bearer <token>".
For development only: refused when NODE_ENV=production (a production server's callers get tokens from its issuer).`;

const SECONDS = new Map([
  ['s', 1],
  ['m', 60],
  ['h', 3600],
  ['d', 86_400],
  ['w', 604_800],
]);

const part = (value: object) => toBase64Url(utf8(JSON.stringify(value)));

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
  const expires = /^(\d+)\s*([smhdw])$/.exec(values.expires);
  if (!expires) return fail(`--expires must be like 30m, 1h or 7d, not ${values.expires}`);
  const iat = Math.floor(Date.now() / 1000);
  const claims = { sub: values.sub, iat, exp: iat + Number(expires[1]) * SECONDS.get(expires[2]!)!, iss: values.iss, aud: values.aud };
  // HS256 signed on crypto.subtle with the crypto helpers the server has; the server verifies it with jose (auth/jwt.ts).
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  io.stdout.write(`${input}.${toBase64Url(await hmac(await importHmacKey(secret), input))}\n`);
  return 0;
}
