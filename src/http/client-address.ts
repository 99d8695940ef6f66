// The caller's address for the request span's client.address: the host's socket peer, or the header a trusted proxy
// sets (http.clientAddressHeader). A header a client could write itself is never read unless the config names it.

/**
 * The address to record: the configured proxy header's value when it holds one address (CF-Connecting-IP, X-Real-IP),
 * else the peer the host saw; undefined when neither is known.
 */
export function clientAddress(request: Request, header: string | undefined, peer: string | undefined): string | undefined {
  const given = header === undefined ? null : request.headers.get(header)?.trim();
  // A list (X-Forwarded-For) names hops a client may have written: only a single address is taken.
  return given && !given.includes(',') ? given : peer;
}
