// Where a request's span hangs in the caller's trace, and which of its attributes the duration histogram keeps.
/** What the parent is read from on HTTP: the request's headers (a Fetch Headers, or parley-mcp/node's light ones). */
export interface Carrier {
  get(name: string): string | null;
}

/** The part of @opentelemetry/api's metrics Parley uses. */
export interface OtelMetrics {
  getMeter(name: string): {
    createHistogram(
      name: string,
      options?: { unit?: string; description?: string; advice?: { explicitBucketBoundaries?: number[] } },
    ): { record(value: number, attributes?: Record<string, string | number | boolean>): void };
  };
}

/** The part of @opentelemetry/api's propagation Parley uses. */
export interface OtelPropagation {
  extract<C>(
    context: unknown,
    carrier: C,
    getter: { get(carrier: C, key: string): string | undefined; keys(carrier: C): string[] },
  ): unknown;
}

type Meta = Record<string, unknown>;

// Only the W3C keys a propagator reads, and only as strings: `_meta` is the caller's object, never walked further.
const PROPAGATED = ['traceparent', 'tracestate', 'baggage'];
const META_GETTER = {
  get: (meta: Meta, key: string) => (Object.hasOwn(meta, key) && typeof meta[key] === 'string' ? (meta[key] as string) : undefined),
  keys: (meta: Meta) => PROPAGATED.filter((key) => Object.hasOwn(meta, key)),
};
const HEADER_GETTER = {
  get: (headers: Carrier, key: string) => headers.get(key) ?? undefined,
  keys: () => PROPAGATED,
};

/**
 * The request span's parent context, through the propagators the application registered (W3C Trace Context and
 * Baggage with the OpenTelemetry SDK's defaults): `params._meta` when it carries a `traceparent` (the MCP semantic
 * conventions; 2026-07-28 clients put it there), else the HTTP headers, else the active context.
 */
export function parentContext(
  api: { context: { active(): unknown }; propagation: OtelPropagation },
  meta: unknown,
  headers: Carrier | undefined,
): unknown {
  const active = api.context.active();
  if (typeof meta === 'object' && meta !== null && META_GETTER.get(meta as Meta, 'traceparent') !== undefined)
    return api.propagation.extract(active, meta as Meta, META_GETTER);
  return headers ? api.propagation.extract(active, headers, HEADER_GETTER) : active;
}

// The duration's dimensions: the conventions' low-cardinality ones (no ids, no resource URI, no address).
const MEASURED = [
  'mcp.method.name',
  'gen_ai.tool.name',
  'gen_ai.prompt.name',
  'gen_ai.operation.name',
  'mcp.protocol.version',
  'network.transport',
  'error.type',
  'rpc.response.status_code',
];

/** The request's and its outcome's attributes the histogram records. */
export function durationAttributes(
  request: Record<string, string | number | boolean>,
  outcome: Record<string, string | number | boolean>,
): Record<string, string | number | boolean> {
  const all = { ...request, ...outcome };
  const kept: Record<string, string | number | boolean> = {};
  for (const key of MEASURED) if (all[key] !== undefined) kept[key] = all[key];
  return kept;
}
