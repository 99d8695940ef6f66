// An issuer's metadata (its OpenID Connect document, else its RFC 8414 one): where it keeps its keys, and for the
// inbox's sign-in, its endpoints.
import { fetchIdpJson, IdpUnavailableError } from './idp-fetch';

/** The two metadata locations of an issuer, in the order tried: OIDC appends, RFC 8414 inserts after the origin. */
function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  return [
    new URL(`${url.origin}${path}/.well-known/openid-configuration`),
    new URL(`${url.origin}/.well-known/oauth-authorization-server${path}`),
  ];
}

/**
 * The issuer's metadata: the first document that names this issuer (RFC 8414 §3.3: a document for another issuer is
 * refused) and has `jwks_uri`. Rejects with IdpUnavailableError when neither can be read.
 */
export async function discoverIssuer(issuer: string): Promise<Record<string, unknown> & { jwks_uri: string }> {
  const problems: string[] = [];
  for (const url of metadataUrls(issuer)) {
    try {
      const metadata = await fetchIdpJson(url, 'The issuer metadata');
      if (metadata.issuer !== issuer)
        throw new IdpUnavailableError(`The metadata at ${url.href} is for issuer ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
      if (typeof metadata.jwks_uri !== 'string' || !URL.canParse(metadata.jwks_uri))
        throw new IdpUnavailableError(`The metadata at ${url.href} has no jwks_uri`);
      return metadata as Record<string, unknown> & { jwks_uri: string };
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  throw new IdpUnavailableError(problems.join('; '));
}

/** The issuer's `jwks_uri`, from its metadata. */
export const discoverJwksUrl = async (issuer: string): Promise<URL> => new URL((await discoverIssuer(issuer)).jwks_uri);
