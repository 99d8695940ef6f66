// Whose question it is: a signed-in principal (per issuer), else the verified session, else nobody.
import type { AuthInfo } from './tool-types';

/**
 * The subject a persistent question belongs to: `principal:<iss>#<sub>` (`principal:<sub>` without an issuer),
 * else `session:<id>` for a verified session (`authInfo.sessionId`, set by the transport), else undefined (anonymous).
 * @example questionSubjectOf({ user: { sub: 'u1', iss: 'https://idp.example' } }) // 'principal:https://idp.example#u1'
 */
export function questionSubjectOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const { user } = authInfo;
  if (!authInfo.anonymous && typeof user?.sub === 'string' && user.sub !== '')
    return typeof user.iss === 'string' && user.iss !== '' ? `principal:${user.iss}#${user.sub}` : `principal:${user.sub}`;
  const session = authInfo.sessionId;
  return typeof session === 'string' && session !== '' ? `session:${session}` : undefined;
}
