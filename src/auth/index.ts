// Auth's door, the one interface the composition root (app/) wires: bearer tokens checked (JWT on jose behind
// Parley's stricter policy, a JWKS, introspection, a user's verify), the documents at the server's origin (Protected
// Resource Metadata, the authorization server's metadata), and people's OpenID Connect sign-in to the inbox.
export { createBearerVerifier } from './bearer';
export { IdpUnavailableError } from './idp-fetch';
export { authorizationServersOf, listedScopes, metadataUrlOf } from './resource-metadata';
export { wellKnownRoutes } from './well-known';
export {
  addSignInRoutes,
  cookie,
  createPersonSignIn,
  readCookie,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookie,
  signInIssuer,
} from './sign-in';
export type { InboxBindings, PersonSignIn, SignInFlow } from './sign-in';
