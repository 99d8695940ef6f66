// OpenTelemetry tracing: a span per JSON-RPC request, a child span per tool call, and an event per question.
// Parley never imports @opentelemetry/api itself: on Node "#node-only" loads it once per server when installed,
// and an edge bundle gets it only from `telemetry: { api }` in the config. Attributes name what happened, never a
// message, an answer or a secret.

/** The few parts of @opentelemetry/api Parley uses, typed here so the core builds and bundles without it. */
export interface OtelSpan {
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
  };
  context: { active(): unknown };
}

type Tracer = ReturnType<OtelApi['trace']['getTracer']>;
type Attributes = Record<string, string | number | boolean>;
type Era = 'modern' | 'unversioned' | 'legacy';

const SERVER = 1; // SpanKind.SERVER
const INTERNAL = 0; // SpanKind.INTERNAL
const ERROR = 2; // SpanStatusCode.ERROR
const INTERNAL_ERROR = -32603;

/** What a request span records at its start. `store`: where its questions wait (`request-state` on 2026-07-28). */
export interface RequestFacts {
  method: string;
  era: Era;
  params: Record<string, unknown>;
  version?: string;
  store?: string;
}

/** The tracer of one server, or undefined (no @opentelemetry/api, or `telemetry: false`): then nothing is traced. */
export function createTelemetry(api: OtelApi | undefined): Telemetry | undefined {
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
  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
  ) {}

  /** Starts a request's span: `tools/call close_ticket`, as the MCP semantic conventions name it. */
  request(facts: RequestFacts): RequestTrace {
    const name = targetOf(facts.method, facts.params);
    const span = this.tracer.startSpan(name.value ? `${facts.method} ${name.value}` : facts.method, { kind: SERVER });
    // Fast path: with no tracer provider registered (or the request not sampled) the span records nothing and its
    // tool's would not either, so no more span objects, attributes or promises are made for the request.
    if (!span.isRecording()) {
      span.end();
      return UNTRACED;
    }
    span.setAttribute('mcp.method.name', facts.method);
    span.setAttribute('parley.protocol.era', facts.era);
    if (facts.version) span.setAttribute('mcp.protocol.version', facts.version);
    if (name.value) span.setAttribute(name.attribute, name.value);
    return new SpanTrace(this.api, this.tracer, span, facts);
  }
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

/** One request's recording span. */
class SpanTrace implements RequestTrace {
  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly span: OtelSpan,
    private readonly facts: RequestFacts,
  ) {}

  tool(name: string): ToolTrace {
    const parent = this.api.trace.setSpan(this.api.context.active(), this.span as never);
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: INTERNAL, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name } },
      parent,
    );
    return new ToolTrace(span, {
      'gen_ai.tool.name': name,
      'parley.protocol.era': this.facts.era,
      'parley.store.kind': this.facts.store ?? 'none',
    });
  }

  watch<T>(
    work: Promise<T>,
    resultOf: (value: T) => Record<string, unknown> | undefined = (value) => value as Record<string, unknown>,
  ): Promise<T> {
    return settle(this.span, work, (value) => {
      const result = resultOf(value);
      const round = result && this.facts.era === 'modern' ? roundOf(this.facts.params, result) : undefined;
      if (round !== undefined) this.span.setAttribute('parley.round', round);
      return result;
    });
  }

  end(result: Record<string, unknown> | undefined): void {
    void this.watch(Promise.resolve(result));
  }
}

/** A tool call's span: its questions are its events. */
export class ToolTrace {
  constructor(
    private readonly span: OtelSpan,
    private readonly attributes: Attributes,
  ) {}

  /** `asked`, `answered`, `declined`, `cancelled` or `timed_out`; the key and mode only, never the message or answer. */
  question(event: 'asked' | 'answered' | 'declined' | 'cancelled' | 'timed_out', key: string, mode: string): void {
    if (this.span.isRecording())
      this.span.addEvent(`parley.question.${event}`, { ...this.attributes, 'parley.question.key': key, 'parley.question.mode': mode });
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
    return settle(this.span, work, (outcome) => (outcome.kind === 'suspended' ? { resultType: 'input_required' } : outcome.result), true);
  }
}

/** Ends `span` when `work` settles: the result's type (and a tool error's code), or the error's code. */
function settle<T>(
  span: OtelSpan,
  work: Promise<T>,
  resultOf: (value: T) => Record<string, unknown> | undefined,
  toolStatus = false,
): Promise<T> {
  return work.then(
    (value) => {
      const result = resultOf(value);
      if (span.isRecording() && result) {
        const type = resultTypeOf(result);
        span.setAttribute('parley.result.type', type);
        if (type === 'tool_error') {
          span.setAttribute('error.type', 'tool_error');
          const code = (result._meta as Record<string, unknown> | undefined)?.code;
          if (typeof code === 'string') span.setAttribute('parley.tool.error_code', code);
          if (toolStatus) span.setStatus({ code: ERROR });
        }
      }
      span.end();
      return value;
    },
    (error: unknown) => {
      failSpan(span, error);
      span.end();
      throw error;
    },
  );
}

/** A JSON-RPC error: its numeric code, and its class name as error.type (the message may carry the caller's input). */
function failSpan(span: OtelSpan, error: unknown): void {
  if (!span.isRecording()) return;
  const code = (error as { code?: unknown } | null)?.code;
  const wire = typeof code === 'number' ? code : INTERNAL_ERROR;
  span.setAttribute('parley.result.type', 'error');
  span.setAttribute('rpc.jsonrpc.error_code', wire);
  span.setAttribute('error.type', String(wire));
  span.setStatus({ code: ERROR });
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
