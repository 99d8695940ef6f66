// Where clients reach this server: http.publicUrl, else (with http.trustProxy) what the proxy says, else the request's
// own URL. Behind a TLS-terminating proxy the request says http:// and an inside host; every URL Parley hands out
// (the resource, challenges, the landing page, inbox links) and the Origin check use this origin instead.

/** The http settings this reads. */
export interface PublicUrlOptions {
  publicUrl?: string;
  trustProxy?: boolean;
}

// A host a proxy may name: a DNS name or IPv4 address, or a bracketed IPv6 one, with an optional port.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;

/** `proto` and `host` of the first (client-facing) element of a Forwarded header (RFC 7239); values may be quoted. */
function forwarded(header: string | null): { proto?: string; host?: string } {
  const element = first(header);
  const found: Record<string, string> = {};
  for (const pair of element?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at > 0)
      found[pair.slice(0, at).trim().toLowerCase()] = pair
        .slice(at + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
  }
  return { proto: found.proto, host: found.host };
}

/** The origin clients reach this server at, for a request. */
export function publicOrigin(request: Request, options: PublicUrlOptions): string {
  if (options.publicUrl) return new URL(options.publicUrl).origin;
  const own = new URL(request.url);
  if (!options.trustProxy) return own.origin;
  const headers = request.headers;
  const standard = forwarded(headers.get('forwarded'));
  const proto = (standard.proto ?? first(headers.get('x-forwarded-proto')))?.toLowerCase();
  const host = standard.host ?? first(headers.get('x-forwarded-host'));
  const scheme = proto === 'https' || proto === 'http' ? proto : own.protocol.slice(0, -1);
  // A value that cannot be a host is ignored, never put in a URL.
  return `${scheme}://${host !== undefined && HOST.test(host) ? host : own.host}`;
}
