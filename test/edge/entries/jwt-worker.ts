// verifyJwt inside workerd: POST { token, jwk } and it answers the claims, or 401 with why, using the Workers' WebCrypto.
import { JWS_ALGORITHMS, verifyJwt } from '../../../src/auth/jwt';

export default {
  async fetch(request: Request): Promise<Response> {
    const { token, jwk } = (await request.json()) as { token: string; jwk: JsonWebKey };
    const algorithms = [...JWS_ALGORITHMS.keys()];
    try {
      const claims = await verifyJwt(
        token,
        (header) => crypto.subtle.importKey('jwk', { ...jwk, alg: undefined }, JWS_ALGORITHMS.get(header.alg)!.key, false, ['verify']),
        { algorithms },
      );
      return Response.json(claims);
    } catch (error) {
      return new Response((error as Error).message, { status: 401 });
    }
  },
};
