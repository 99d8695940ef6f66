// OpenTelemetry tracing: a span per JSON-RPC request, continuing the caller's trace, a child span per tool call, an
// event per question, and the mcp.server.operation.duration histogram. Parley never imports @opentelemetry/api
// itself: on Node "#node-only" loads it once per server when installed. Attributes name what happened, never a
// message, an answer or a secret.
import { durationAttributes, parentContext, type Carrier, type OtelMetrics, type OtelPropagation } from './trace-context';

/** The few parts of @opentelemetry/api Parley uses, typed here so the core builds and bundles without it. */
interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): unknown;
  addEvent(name: string, attributes?: Record<string, string | number | boolean>): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  isRecording(): boolean;
  end(): void;
}
export interface OtelApi {
  trace: {
    getTracer(name: string): {
      startSpan(
        name: string,
        options?: { kind?: number; attributes?: Record<string, string | number | boolean> },
        context?: unknown,
      ): OtelSpan;
    };
    setSpan(context: unknown, span: never): unknown;
    /** The global provider: the API's proxy, whose `getDelegateTracer` is undefined until a provider is registered. */
    getTracerProvider?(): { getDelegateTracer?(name: string): unknown };
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  propagation: OtelPropagation;
  metrics?: OtelMetrics;
  createNoopMeter?: () => ReturnType<OtelMetrics['getMeter']>;
}

type Tracer = ReturnType<OtelApi['trace']['getTracer']>;
type Attributes = Record<string, string | number | boolean>;
type Era = 'modern' | 'unversioned' | 'legacy';

const SERVER = 1; // SpanKind.SERVER
const INTERNAL = 0; // SpanKind.INTERNAL
const ERROR = 2; // SpanStatusCode.ERROR
const INTERNAL_ERROR = -32603;

/** What a request span records at its start. `store`: where its questions wait (`request-state` on 2026-07-28). */
interface RequestFacts {
  method: string;
  era: Era;
  params: Record<string, unknown>;
  /** The JSON-RPC id (none for initialize's own span when it is not known). */
  id?: string | number;
  version?: string;
  store?: string;
  /** The session of a client before 2026-07-28. */
  session?: string;
  /** The HTTP request's headers, the parent's carrier when `params._meta` has no `traceparent`; none on stdio. */
  headers?: Carrier;
  /** The peer's address, where the host knows it (Node: the socket's). */
  client?: string;
  /** `pipe` on stdio; `tcp` (the default) on HTTP. */
  transport?: 'tcp' | 'pipe';
}

/** The tracer of one server, or undefined (no @opentelemetry/api, or `telemetry: false`): then nothing is traced. */
function createTelemetry(api: OtelApi | undefined): Telemetry | undefined {
  return api ? new Telemetry(api, api.trace.getTracer('parley-mcp')) : undefined;
}

/** The given @opentelemetry/api, else the installed one loaded quietly: undefined when it is not installed. */
export const loadTelemetry = async (given: OtelApi | undefined, load: () => Promise<unknown>): Promise<Telemetry | undefined> =>
  createTelemetry(
    given ??
      (await load().then(
        (api) => api as OtelApi,
        () => undefined,
      )),
  );

export class Telemetry {
  /** The duration histogram; undefined when no meter provider was registered before the server was built. */
  private readonly duration: Histogram | undefined;
  /** Set once a tracer provider is registered (or the API given cannot say): a provider stays once there. */
  private providerSeen = false;

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
  ) {
    const meter = api.metrics?.getMeter('parley-mcp');
    const histogram = meter?.createHistogram('mcp.server.operation.duration', {
      unit: 's',
      description: 'MCP request duration as observed on the server, from receipt until the result is sent',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    });
    // The API's no-op meter hands out one shared histogram: measuring into it would only cost a promise a request.
    this.duration = histogram && histogram !== api.createNoopMeter?.().createHistogram('') ? histogram : undefined;
  }

  /**
   * Starts a request's span, `tools/call close_ticket` as the MCP semantic conventions name it, as the child of the
   * caller's span: the `traceparent` (with `tracestate`, `baggage`) in `params._meta`, else in the HTTP headers.
   */
  request(facts: RequestFacts): RequestTrace {
    // Fast path: the API installed, no tracer provider registered and no meter: its tracer is a no-op, so no span is
    // started (the API's context, propagator and a NonRecordingSpan cost ~1,500 instructions a request). Kept apart
    // from the span's start, so that this check is small enough for V8 to optimize early and inline into its caller.
    return !this.duration && !this.tracing() ? UNTRACED : this.startRequest(facts);
  }

  private startRequest(facts: RequestFacts): RequestTrace {
    const name = targetOf(facts.method, facts.params);
    const parent = parentContext(this.api, facts.params._meta, facts.headers);
    const span = this.tracer.startSpan(name.value ? `${facts.method} ${name.value}` : facts.method, { kind: SERVER }, parent);
    const recording = span.isRecording();
    // Fast path: with no tracer provider registered (or the request not sampled) and no meter provider, the span
    // records nothing and its tool's would not either, so no more span objects, attributes or promises are made.
    if (!recording && !this.duration) {
      span.end();
      return UNTRACED;
    }
    const attributes: Attributes = { 'mcp.method.name': facts.method, 'network.transport': facts.transport ?? 'tcp' };
    if (facts.version) attributes['mcp.protocol.version'] = facts.version;
    if (name.value) attributes[name.attribute] = name.value;
    if (facts.method === 'tools/call') attributes['gen_ai.operation.name'] = 'execute_tool';
    if (recording) {
      for (const key in attributes) span.setAttribute(key, attributes[key]!);
      span.setAttribute('parley.protocol.era', facts.era);
      if (facts.id !== undefined) span.setAttribute('jsonrpc.request.id', String(facts.id));
      if (facts.session) span.setAttribute('mcp.session.id', facts.session);
      if (facts.client) span.setAttribute('client.address', facts.client);
    }
    const measure = this.duration ? { histogram: this.duration, attributes, start: performance.now() } : undefined;
    return new SpanTrace(this.api, this.tracer, span, facts, parent, measure);
  }

  /** Whether spans may record: a tracer provider is registered now (checked until one is). */
  private tracing(): boolean {
    if (this.providerSeen) return true;
    const provider = this.api.trace.getTracerProvider?.();
    this.providerSeen = provider?.getDelegateTracer === undefined || provider.getDelegateTracer('parley-mcp') !== undefined;
    return this.providerSeen;
  }
}

/** The semantic conventions' advised boundaries for MCP durations, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

type Histogram = ReturnType<ReturnType<OtelMetrics['getMeter']>['createHistogram']>;
interface Measure {
  histogram: Histogram;
  attributes: Attributes;
  start: number;
}

/** One request's trace; `tool()` starts its tool call's child span (none when the request's span records nothing). */
export interface RequestTrace {
  tool(name: string): ToolTrace | undefined;
  /** Ends the span when `work` settles, with its result's type and round, or its error's code. */
  watch<T>(work: Promise<T>, resultOf?: (value: T) => Record<string, unknown> | undefined): Promise<T>;
  end(result: Record<string, unknown> | undefined): void;
}

/** A request whose span records nothing: the work as it is. */
const UNTRACED: RequestTrace = { tool: () => undefined, watch: (work) => work, end() {} };

/** One request's span (recording, or measured only). */
class SpanTrace implements RequestTrace {
  // biome-ignore lint/complexity/useMaxParams: the span's parts, kept as its fields; one caller, request() above
  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly span: OtelSpan,
    private readonly facts: RequestFacts,
    private readonly parent: unknown,
    private readonly measure: Measure | undefined,
  ) {}

  tool(name: string): ToolTrace | undefined {
    if (!this.span.isRecording()) return undefined; // measured only: no tool span to record either
    const parent = this.api.trace.setSpan(this.parent, this.span as never);
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: INTERNAL, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name } },
      parent,
    );
    return new ToolTrace(this.api, span, this.api.trace.setSpan(parent, span as never), {
      'gen_ai.tool.name': name,
      'parley.protocol.era': this.facts.era,
      'parley.store.kind': this.facts.store ?? 'none',
    });
  }

  watch<T>(
    work: Promise<T>,
    resultOf: (value: T) => Record<string, unknown> | undefined = (value) => value as Record<string, unknown>,
  ): Promise<T> {
    return settle(
      this.span,
      work,
      (value) => {
        const result = resultOf(value);
        const round = result && this.facts.era === 'modern' ? roundOf(this.facts.params, result) : undefined;
        if (round !== undefined && this.span.isRecording()) this.span.setAttribute('parley.round', round);
        return result;
      },
      this.measure,
    );
  }

  end(result: Record<string, unknown> | undefined): void {
    void this.watch(Promise.resolve(result));
  }
}

/** A tool call's span: its questions are its events. */
export class ToolTrace {
  constructor(
    private readonly api: OtelApi,
    private readonly span: OtelSpan,
    private readonly context: unknown,
    private readonly attributes: Attributes,
  ) {}

  /** Runs the tool's code in its span's context: spans it starts (a fetch, a query) are the tool span's children. */
  run<T>(work: () => T): T {
    return this.api.context.with(this.context, work);
  }

  /** `asked`, `answered`, `declined`, `cancelled` or `timed_out`; the key and mode only, never the message or answer. */
  question(event: 'asked' | 'answered' | 'declined' | 'cancelled' | 'timed_out', key: string, mode: string): void {
    if (this.span.isRecording())
      this.span.addEvent(`parley.question.${event}`, { ...this.attributes, 'parley.question.key': key, 'parley.question.mode': mode });
  }

  /**
   * A decision log entry (inbox/decision-log.ts) as `parley.decision.<event>`: its question, channel, who and action,
   * never the message or the answer.
   */
  decision(entry: { event: string; question: string; key: string; by: string; channel: string; action?: string }): void {
    if (!this.span.isRecording()) return;
    const attributes: Attributes = {
      ...this.attributes,
      'parley.question.id': entry.question,
      'parley.question.key': entry.key,
      'parley.decision.by': entry.by,
      'parley.decision.channel': entry.channel,
    };
    if (entry.action) attributes['parley.decision.action'] = entry.action;
    this.span.addEvent(`parley.decision.${entry.event}`, attributes);
  }

  /** The answer's event, from its checked action. */
  answered(key: string, mode: string, status: string): void {
    this.question(status === 'accept' ? 'answered' : status === 'decline' ? 'declined' : 'cancelled', key, mode);
  }

  /** A question that holds the call open and gets no answer in its ttl (ElicitationTimeoutError) is a `timed_out` event. */
  awaitAnswer<T>(key: string, mode: string, answer: Promise<T>): Promise<T> {
    return answer.catch((error: unknown) => {
      if ((error as { code?: unknown } | null)?.code === 'ELICITATION_TIMEOUT') this.question('timed_out', key, mode);
      throw error;
    });
  }

  /** Ends the span when the run settles: `suspended` is an input_required round; a tool error sets its status. */
  watch<T extends { kind: string; result?: Record<string, unknown> }>(work: Promise<T>): Promise<T> {
    return settle(this.span, work, (outcome) => (outcome.kind === 'suspended' ? { resultType: 'input_required' } : outcome.result));
  }
}

/**
 * Ends `span` when `work` settles: the result's type (a tool error's code, and status ERROR as the conventions ask
 * whenever error.type is set), or the JSON-RPC error's code; `measure` records the duration with the same outcome.
 */
function settle<T>(
  span: OtelSpan,
  work: Promise<T>,
  resultOf: (value: T) => Record<string, unknown> | undefined,
  measure?: Measure,
): Promise<T> {
  const finish = (outcome: Attributes, failed: boolean) => {
    if (span.isRecording()) {
      for (const key in outcome) span.setAttribute(key, outcome[key]!);
      if (failed) span.setStatus({ code: ERROR });
    }
    span.end();
    if (measure) measure.histogram.record((performance.now() - measure.start) / 1000, durationAttributes(measure.attributes, outcome));
  };
  return work.then(
    (value) => {
      const result = resultOf(value);
      const type = result ? resultTypeOf(result) : undefined;
      const outcome: Attributes = type ? { 'parley.result.type': type } : {};
      if (type === 'tool_error') {
        outcome['error.type'] = 'tool_error';
        const code = (result!._meta as Record<string, unknown> | undefined)?.code;
        if (typeof code === 'string') outcome['parley.tool.error_code'] = code;
      }
      finish(outcome, type === 'tool_error');
      return value;
    },
    (error: unknown) => {
      finish(failure(error), true);
      throw error;
    },
  );
}

/** A JSON-RPC error: its numeric code, as a string, is error.type (the message may carry the caller's input). */
function failure(error: unknown): Attributes {
  const code = (error as { code?: unknown } | null)?.code;
  const wire = String(typeof code === 'number' ? code : INTERNAL_ERROR);
  return { 'parley.result.type': 'error', 'rpc.response.status_code': wire, 'error.type': wire };
}

function targetOf(method: string, params: Record<string, unknown>): { attribute: string; value?: string } {
  if (method === 'tools/call') return { attribute: 'gen_ai.tool.name', value: stringOr(params.name) };
  if (method === 'prompts/get') return { attribute: 'gen_ai.prompt.name', value: stringOr(params.name) };
  if (method === 'resources/read') return { attribute: 'mcp.resource.uri', value: stringOr(params.uri) };
  return { attribute: '' };
}

const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function resultTypeOf(result: Record<string, unknown>): string {
  if (result.resultType === 'input_required') return 'input_required';
  return result.isError === true ? 'tool_error' : 'complete';
}

/** The round of a 2026-07-28 request that asks or answers: one past the highest question it answers (as the access log counts). */
function roundOf(params: Record<string, unknown>, result: Record<string, unknown>): number | undefined {
  const given = params.inputResponses;
  const keys = typeof given === 'object' && given !== null ? Object.keys(given) : [];
  if (keys.length === 0) return result.resultType === 'input_required' ? 1 : undefined;
  return Math.max(...keys.map((key, i) => Number(/-(\d+)$/.exec(key)?.[1] ?? i + 1))) + 1;
}
