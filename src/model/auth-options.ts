// The `auth` option: how bearer tokens are verified, and what the server says about itself as an OAuth resource server.
import * as z from 'zod';
import { SCOPE_TOKEN, type ScopeSatisfies } from './scopes';

const text = z.string().min(1);
const oneOrMany = z.union([text, z.array(text).min(1)]);
const scope = z.string().regex(SCOPE_TOKEN, 'a scope is printable ASCII with no space, quote or backslash');

export const authSchema = z
  .strictObject({
    /**
     * Your own check, for opaque tokens, API keys or introspection (`parley-mcp/introspection`): resolve with the
     * caller (Parley's AuthInfo, the official SDK's, or the token's claims), or undefined to refuse (401). Throw
     * IdpUnavailableError when the check could not be made (503).
     */
    verify: z
      .custom<TokenVerify>((v) => typeof v === 'function', 'expected a function (token, request, { resource }) => caller')
      .optional(),
    // exactOptional: `secret: process.env.AUTH_SECRET` with the variable unset is refused as auth.secret, undefined
    // (configIssues names the likely cause), not as "set how tokens are verified".
    /** HS256 with this shared secret (development, or a signer that is yours). */
    secret: text.exactOptional(),
    /** The identity provider's JWKS; left out with an `issuer`, it is found in the issuer's metadata. */
    jwksUrl: z.url().exactOptional(),
    /** The `iss` a token must carry: one issuer or a list. */
    issuer: oneOrMany.optional(),
    /** The `aud` a token must carry; by default the resource. `false` accepts a token issued for any audience. */
    audience: z.union([oneOrMany, z.literal(false)]).optional(),
    /** Seconds of clock difference allowed on `exp`, `nbf` and `iat`. */
    clockToleranceSec: z.number().int().min(0).max(300).default(0),
    /** The canonical URL of the MCP endpoint (RFC 8707/9728); by default http.publicUrl (or the request's origin) plus http.path. */
    resource: z.url().optional(),
    /** Scopes every request needs; a token without them gets 403 insufficient_scope. */
    requiredScopes: z.array(scope).default([]),
    /** Scope hierarchies: whether a granted scope covers a required one (`tickets:admin` covers `tickets:write`). */
    scopeSatisfies: z
      .custom<ScopeSatisfies>((v) => typeof v === 'function', 'expected a function (granted, required) => boolean')
      .optional(),
    /** The authorization servers clients should get tokens from (Protected Resource Metadata); by default the issuer. */
    authorizationServers: z.array(z.url()).min(1).optional(),
    /** The scopes this server understands, as its metadata lists them (`offline_access` is never listed). */
    scopesSupported: z.array(scope).optional(),
    /** A name for people, in the metadata; by default the server's title or name. */
    resourceName: text.optional(),
    /** A page about this server, in the metadata. */
    resourceDocumentation: z.url().optional(),
  })
  .superRefine((auth, ctx) => {
    const ways = [
      auth.secret !== undefined && 'secret',
      auth.jwksUrl !== undefined && 'jwksUrl',
      auth.verify !== undefined && 'verify',
    ].filter(Boolean);
    if (ways.length > 1) ctx.addIssue({ code: 'custom', message: `set one of ${ways.join(' and ')}, not both` });
    else if (ways.length === 0 && auth.issuer === undefined)
      ctx.addIssue({
        code: 'custom',
        message:
          "set how tokens are verified: issuer: 'https://idp.example' (its JWKS found from its metadata), jwksUrl, secret (HS256), or verify",
      });
    else if (ways.length === 0)
      for (const issuer of [auth.issuer ?? []].flat())
        if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol))
          ctx.addIssue({
            code: 'custom',
            path: ['issuer'],
            message: `to find the JWKS from the issuer, the issuer must be an https URL, not "${issuer}"; or set jwksUrl`,
          });
  });

export type AuthOptions = z.output<typeof authSchema>;

/** `auth.verify`: a token's caller (any shape `toCaller` takes), or undefined to refuse it. */
export type TokenVerify = (token: string, request: Request, context: { resource: string }) => unknown;
