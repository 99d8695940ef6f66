// A small router for a few HTTP routes under one base path (the inbox's, and its sign-in's): a method and a path whose
// segments are words or one `:name` each, a handler per route, one answer for no route and one for a thrown error.
// Routes are looked up in Maps, never by indexing an object with a path, so a segment named `__proto__` or
// `constructor` is a path like any other (a 404 where no route has it).

/** What a route's handler gets: the request, read through a few helpers, and what the caller passed along. */
export interface RouteContext<Env> {
  req: {
    raw: Request;
    url: string;
    /** A header's value, undefined when the request has none. */
    header(name: string): string | undefined;
    /** The path segment a route's `:name` matched, decoded. */
    param(name: string): string;
    /** A query parameter's first value, undefined when absent. */
    query(name: string): string | undefined;
  };
  env: Env | undefined;
}

type RouteHandler<Env> = (c: RouteContext<Env>) => Response | Promise<Response>;

interface Route<Env> {
  /** The segments after the base path; a `:name` segment matches any non-empty segment. */
  segments: string[];
  handler: RouteHandler<Env>;
}

/** `notFound` answers a path or method no route has; `onError` a handler's throw or rejection. */
interface RouterOptions {
  notFound: () => Response;
  onError: (error: unknown) => Response;
}

export class Router<Env> {
  /** Routes by method, then by their number of segments. */
  readonly #routes = new Map<string, Route<Env>[]>();

  constructor(
    /** Where the routes are: the part of the path before each route's own (`/_frontmcp`). */
    readonly base: string,
    readonly options: RouterOptions,
  ) {}

  get(path: string, handler: RouteHandler<Env>): this {
    return this.#add('GET', path, handler);
  }

  post(path: string, handler: RouteHandler<Env>): this {
    return this.#add('POST', path, handler);
  }

  #add(method: string, path: string, handler: RouteHandler<Env>): this {
    const routes = this.#routes.get(method) ?? [];
    routes.push({ segments: path.split('/').slice(1), handler });
    this.#routes.set(method, routes);
    return this;
  }

  /** The answer of the route the request's method and path name; a HEAD is a GET without its body. */
  readonly fetch = async (request: Request, env?: Env): Promise<Response> => {
    const url = new URL(request.url);
    const found = url.pathname.startsWith(`${this.base}/`)
      ? this.#match(request.method === 'HEAD' ? 'GET' : request.method, url.pathname.slice(this.base.length).split('/').slice(1))
      : undefined;
    if (!found) return this.options.notFound();
    const [route, params] = found;
    const c: RouteContext<Env> = {
      req: {
        raw: request,
        url: request.url,
        header: (name) => request.headers.get(name) ?? undefined,
        param: (name) => params.get(name) ?? '',
        query: (name) => url.searchParams.get(name) ?? undefined,
      },
      env,
    };
    let response: Response;
    try {
      response = await route.handler(c);
    } catch (error) {
      response = this.options.onError(error);
    }
    return request.method === 'HEAD' ? new Response(null, response) : response;
  };

  #match(method: string, raw: string[]): [Route<Env>, Map<string, string>] | undefined {
    let segments: string[];
    try {
      segments = raw.map(decodeURIComponent);
    } catch {
      return undefined; // a malformed %-escape names no route
    }
    for (const route of this.#routes.get(method) ?? []) {
      if (route.segments.length !== segments.length) continue;
      const params = new Map<string, string>();
      const fits = route.segments.every((want, i) => {
        const got = segments[i]!;
        if (!want.startsWith(':')) return want === got;
        params.set(want.slice(1), got);
        return got !== '';
      });
      if (fits) return [route, params];
    }
    return undefined;
  }
}
