// Signs an HS256 bearer token for a caller, as an identity provider would, for servers configured with auth.secret.
import { SignJWT } from 'jose';

export async function bearer(sub: string, secret: string, issuer?: string): Promise<string> {
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setIssuedAt().setExpirationTime('10m');
  if (issuer) jwt = jwt.setIssuer(issuer);
  return `Bearer ${await jwt.sign(new TextEncoder().encode(secret))}`;
}
