// The provider's side of people signing in to the inbox (`http.auth.oidc`): OpenID Connect's authorization code flow
// with PKCE at the issuer the server already trusts, ending in the subject the person's agents file questions under.
// Node only: loaded with persistent questions (app/question-setup.ts).
import { randomBytes, sha256, toBase64Url } from '../crypto';
import type { Logger } from '../runtime';
import type { ParleyConfig } from '../model';
import { questionSubjectOf, SignInRefusedError, type PersonSignIn } from '../inbox';
import { discoverIssuer } from './discovery';
import { IdpUnavailableError, JWKS_ALGORITHMS, readIdpJson, remoteKeySet } from './jwks';
import { verifyJwt } from './jwt';

type OidcOptions = NonNullable<NonNullable<ParleyConfig['http']['auth']>['oidc']>;

const TIMEOUT_MS = 5_000;

/** The issuer people sign in at: `oidc.issuer`, else `auth.issuer`; it must be one the server takes tokens from. */
export function signInIssuer(oidc: OidcOptions, auth: ParleyConfig['auth']): string {
  const trusted = [auth?.issuer ?? []].flat();
  const issuer = oidc.issuer ?? (trusted.length === 1 ? trusted[0] : undefined);
  if (issuer === undefined)
    throw new Error(
      trusted.length === 0
        ? "Invalid server configuration:\n  http.auth.oidc: people sign in where the server's tokens come from: set auth.issuer (e.g. 'https://idp.example')"
        : `Invalid server configuration:\n  http.auth.oidc.issuer: auth.issuer lists several issuers: name the one people sign in at (one of ${trusted.join(', ')})`,
    );
  if (trusted.length > 0 && !trusted.includes(issuer))
    throw new Error(
      `Invalid server configuration:\n  http.auth.oidc.issuer: "${issuer}" is not one of auth.issuer: a person would sign in as someone no token names`,
    );
  return issuer;
}

/** Sign-in at `issuer` for the inbox's client; the provider's metadata and keys are read on first use. */
export function createPersonSignIn(oidc: OidcOptions, issuer: string, logger: Logger): PersonSignIn {
  let metadata: ReturnType<typeof discoverIssuer> | undefined;
  const endpoints = () =>
    (metadata ??= discoverIssuer(issuer).catch((error: unknown) => {
      metadata = undefined; // tried again by the next sign-in
      throw error;
    }));
  const keys = remoteKeySet(async () => new URL((await endpoints()).jwks_uri));
  const outage = (error: unknown): never => {
    logger.error(`Inbox sign-in at ${issuer} failed: ${(error as Error).message}`);
    throw error;
  };
  const endpoint = (found: Record<string, unknown>, name: string): string => {
    const url = found[name];
    if (typeof url !== 'string' || !URL.canParse(url)) throw new IdpUnavailableError(`The issuer metadata of ${issuer} has no ${name}`);
    return url;
  };

  return {
    async begin(state, redirectUri) {
      const found = await endpoints().catch(outage);
      const verifier = toBase64Url(randomBytes(32));
      const nonce = toBase64Url(randomBytes(16));
      const url = new URL(endpoint(found, 'authorization_endpoint'));
      for (const [name, value] of Object.entries({
        response_type: 'code',
        client_id: oidc.clientId,
        redirect_uri: redirectUri,
        scope: 'openid',
        state,
        nonce,
        code_challenge: toBase64Url(await sha256(verifier)),
        code_challenge_method: 'S256',
      }))
        url.searchParams.set(name, value);
      return { url: url.href, flow: { verifier, nonce } };
    },

    async finish(code, flow, redirectUri) {
      const tokenUrl = endpoint(await endpoints().catch(outage), 'token_endpoint');
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: flow.verifier });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      // client_secret_basic (RFC 6749 §2.3.1: each part form-encoded first); a public client names itself in the form.
      if (oidc.clientSecret !== undefined)
        headers.authorization = `Basic ${btoa(`${encodeURIComponent(oidc.clientId)}:${encodeURIComponent(oidc.clientSecret)}`)}`;
      else form.set('client_id', oidc.clientId);
      let answer: Response;
      try {
        answer = await fetch(tokenUrl, { method: 'POST', headers, body: form, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
      } catch (error) {
        return outage(new IdpUnavailableError(`The token endpoint could not be reached: ${(error as Error).message}`));
      }
      const body = (await readIdpJson(answer).catch(() => undefined)) as { id_token?: unknown; error?: unknown } | undefined;
      // 400 and 401 are the provider refusing this code or this client (RFC 6749 §5.2); anything else is its outage.
      if (answer.status === 400 || answer.status === 401)
        throw new SignInRefusedError(`the identity provider refused the code (${String(body?.error ?? answer.status)})`);
      if (!answer.ok || typeof body?.id_token !== 'string')
        return outage(new IdpUnavailableError(`The token endpoint answered ${answer.status} without an ID token`));
      let claims: Record<string, unknown>;
      try {
        // As a bearer token is checked, and the ID token's audience must be this client; no sub is refused below.
        claims = await verifyJwt(body.id_token, keys, { algorithms: JWKS_ALGORITHMS, issuer, audience: oidc.clientId });
      } catch (error) {
        if (error instanceof IdpUnavailableError) return outage(error);
        throw new SignInRefusedError('the ID token could not be verified');
      }
      if (claims.nonce !== flow.nonce) throw new SignInRefusedError('the ID token is not for this sign-in (nonce)');
      const subject = questionSubjectOf({ user: { sub: claims.sub as string, iss: issuer } });
      if (!subject) throw new SignInRefusedError('the ID token has no subject');
      return subject;
    },
  };
}
