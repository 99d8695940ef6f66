// Auth's door, the one interface the composition root (app/) wires: bearer tokens checked (JWT on jose behind
// Parley's stricter policy, a JWKS, introspection, a user's verify), the documents at the server's origin (Protected
// Resource Metadata, the authorization server's metadata), and people's sign-in to the inbox: its cookies here, its
// OpenID Connect flow in oidc-sign-in.ts, which app/ loads with import() only where http.auth.oidc is set.
export { createBearerVerifier } from './bearer';
export { IdpUnavailableError } from './idp-fetch';
export { authorizationServersOf, listedScopes, metadataUrlOf } from './resource-metadata';
export { wellKnownRoutes } from './well-known';
export {
  cookie,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookie,
  signInIssuer,
} from './sign-in';
export type { InboxBindings, OidcOptions, PersonSignIn, SignInFlow } from './sign-in';
