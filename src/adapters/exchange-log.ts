// One line per request, the same in `parley dev` and in serve()'s access log: method, tool, result type, round, status, time.
// `tools/call close_ticket → input_required (asks elicitation-1) (round 1, HTTP 200, 5 ms)`
import type { HandlerOptions } from '../app';
import { parseJson } from '../protocol';

/** Writes a line; `fields` (the request's id, method, status and time) are for a log that keeps fields apart. */
type Print = (line: string, fields?: Record<string, unknown>) => void;
type Fetch = (request: Request, options: HandlerOptions) => Promise<Response>;
type Message = Record<string, any>;

const clock = () => new Date().toTimeString().slice(0, 8);
export const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const idKey = (id: unknown) => JSON.stringify(id);

export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// parseJson: a body nested past MAX_JSON_DEPTH is no message to the log, so no id or field of it is walked.
const tryJson = (text: string | undefined): unknown => {
  try {
    return text === undefined ? undefined : parseJson(text);
  } catch {
    return undefined;
  }
};

/** The line of one request and its answer. */
export function exchangeLine(request: Message, answer: Message, at: { ms: number; status?: number }): string {
  const params = isRecord(request.params) ? request.params : {};
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
  const round = roundOf(params, answer);
  const facts = [round && `round ${round}`, at.status !== undefined && `HTTP ${at.status}`, `${at.ms} ms`].filter(Boolean);
  return `${String(request.method)}${name ? ` ${name}` : ''} → ${outcomeOf(answer)} (${facts.join(', ')})`;
}

/** The fields of one request's line, for a structured log: `requestId` is the JSON-RPC id the client sent. */
const fieldsOf = (request: Message, at: { ms: number; status?: number }) => ({
  requestId: request.id,
  method: request.method,
  status: at.status,
  ms: at.ms,
});

/** Which round of a 2026-07-28 request this is: one past the highest question it answers (elicitation-2 → round 3). */
function roundOf(params: Message, answer: Message): number | undefined {
  const responses = isRecord(params.inputResponses) ? Object.keys(params.inputResponses) : [];
  const asks = isRecord(answer.result) && answer.result.resultType === 'input_required';
  if (responses.length === 0) return asks ? 1 : undefined;
  return Math.max(...responses.map((key, i) => Number(/-(\d+)$/.exec(key)?.[1] ?? i + 1))) + 1;
}

function outcomeOf(message: Message): string {
  if (isRecord(message.error)) return `error ${String(message.error.code)}: ${clip(String(message.error.message))}`;
  const result = isRecord(message.result) ? message.result : {};
  if (result.resultType === 'input_required')
    return `input_required (asks ${Object.keys(isRecord(result.inputRequests) ? result.inputRequests : {}).join(', ') || 'nothing'})`;
  if (result.isError === true) {
    const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
    const code = isRecord(result._meta) && typeof result._meta.code === 'string' ? ` ${result._meta.code}` : '';
    // A question the unanswered-question policy put in the caller's inbox: why (docs/unanswered.md).
    const inbox =
      isRecord(result._meta) && isRecord(result._meta['parley/inbox']) ? ` [inbox: ${String(result._meta['parley/inbox'].reason)}]` : '';
    return `tool error${code}${inbox}: ${clip(String(first?.text ?? ''))}`;
  }
  return 'ok';
}

/** Pairs requests with their answers by id, for a transport that sees messages go by in both directions (stdio). */
export class ExchangeLog {
  private readonly open = new Map<string, { request: Message; at: number }>();
  constructor(private readonly print: Print) {}

  /** A message from the client. */
  inbound(message: unknown): void {
    if (!isRecord(message) || typeof message.method !== 'string') return; // answers to questions: the hooks log those
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled')
        this.line(`cancelled request ${String(isRecord(message.params) ? message.params.requestId : undefined)}`);
      return;
    }
    this.open.set(idKey(message.id), { request: message, at: Date.now() });
  }

  /** A message to the client; only answers to requests make a line. */
  outbound(message: unknown, status?: number): void {
    if (!isRecord(message) || 'method' in message) return;
    const key = idKey(message.id);
    const open = this.open.get(key);
    if (!open) return;
    this.open.delete(key);
    const at = { ms: Date.now() - open.at, status };
    this.line(exchangeLine(open.request, message, at), fieldsOf(open.request, at));
  }

  line(text: string, fields?: Record<string, unknown>): void {
    this.print(`${clock()} ${text}`, fields);
  }
}

/**
 * Wraps a fetch handler so each HTTP request makes one line: a JSON-RPC request with its answer (JSON or on its SSE
 * stream), anything else by method, path and status. Requests are paired with answers within their own exchange, so
 * two clients using the same ids don't mix.
 */
export function observeExchanges(fetch: Fetch, log: Pick<ExchangeLog, 'line'>): Fetch {
  return async (request, options) => {
    const at = Date.now();
    let body: string | undefined;
    if (request.method === 'POST') {
      if (options.readBody) {
        const read = options.readBody;
        options = { ...options, readBody: async (limit) => (body = await read(limit)) };
      } else body = await request.clone().text();
    }
    const response = await fetch(request, options);
    const sent = tryJson(body);
    const message = isRecord(sent) && typeof sent.method === 'string' ? sent : undefined;
    // The client's answer to a question: the elicitation hooks log it.
    if (isRecord(sent) && !message && 'id' in sent && response.status < 300) return response;
    if (message && message.id === undefined) {
      if (message.method === 'notifications/cancelled')
        log.line(`cancelled request ${String(isRecord(message.params) ? message.params.requestId : undefined)}`);
      return response;
    }
    const type = response.headers.get('content-type') ?? '';
    const status = response.status;
    const answered = (answer: unknown) => {
      if (message && isRecord(answer) && !('method' in answer) && idKey(answer.id) === idKey(message.id)) {
        const took = { ms: Date.now() - at, status };
        log.line(exchangeLine(message, answer, took), fieldsOf(message, took));
        return true;
      }
      return false;
    };
    if (message && type.includes('application/json')) {
      void response
        .clone()
        .text()
        .then(
          (text) => answered(tryJson(text)) || log.line(`${request.method} ${pathOf(request)} → HTTP ${status} (${Date.now() - at} ms)`),
        );
      return response;
    }
    if (message && type.includes('text/event-stream') && response.body) {
      const [toClient, toLog] = response.body.tee();
      void readEvents(toLog, (data) => answered(tryJson(data)));
      return new Response(toClient, response);
    }
    log.line(`${request.method} ${pathOf(request)} → HTTP ${status} (${Date.now() - at} ms)`);
    return response;
  };
}

const pathOf = (request: Request) => new URL(request.url).pathname;

async function readEvents(body: ReadableStream<Uint8Array>, onData: (data: string) => boolean): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const data = buffer
        .slice(0, end)
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n');
      buffer = buffer.slice(end + 2);
      if (data.trim() && onData(data)) return; // the answer came: the rest of the stream is the client's alone
    }
  }
}
