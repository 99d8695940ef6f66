// DNS-rebinding guards: the Origin must be loopback, the request's own, or listed; the Host, when checked, likewise.
import { publicOrigin, type PublicUrlOptions } from './public-url';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.test(hostname);

interface GuardOptions extends PublicUrlOptions {
  allowedOrigins: string[];
  allowedHosts?: string[];
}

/** Returns why the request is refused (403), or undefined when it may pass; `origin` is its Origin header. */
export function checkRequestOrigin(request: Request, origin: string | null, options: GuardOptions): string | undefined {
  if (options.allowedHosts) {
    const host = request.headers.get('host') ?? new URL(request.url).host;
    const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
    if (!isLoopbackHost(hostname) && !options.allowedHosts.includes(hostname) && !options.allowedHosts.includes(host))
      return `Host "${host}" is not allowed`;
  }
  if (origin === null) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return `Origin "${origin}" is not allowed`;
  }
  if (parsed.origin === 'null') return `Origin "${origin}" is not allowed`;
  // The request's own origin is the public one (http.publicUrl, or the proxy's with trustProxy) as well as its URL's.
  const own = parsed.origin === new URL(request.url).origin || parsed.origin === publicOrigin(request, options);
  const listed = options.allowedOrigins.includes(parsed.origin) || options.allowedOrigins.includes('*');
  if (isLoopbackHost(parsed.hostname) || own || listed) return undefined;
  return `Origin "${origin}" is not allowed`;
}
