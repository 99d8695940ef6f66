// parley dev's log: one readable line on stderr per request and per elicitation (question asked, answer received).
import type { ElicitationHooks } from '../elicitation/hooks';

export type Print = (line: string) => void;

const clock = () => new Date().toTimeString().slice(0, 8);
const clip = (text: string, max = 120) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const idKey = (id: unknown) => JSON.stringify(id);

interface Open {
  method: string;
  name?: string;
  at: number;
}

/** Pairs requests with their answers, from whichever transport sees the messages go by. */
export class ExchangeLog {
  private readonly open = new Map<string, Open>();
  constructor(private readonly print: Print) {}

  /** A message from the client. */
  inbound(message: unknown): void {
    if (!isRecord(message) || typeof message.method !== 'string') return; // answers to questions: the hooks log those
    const params = isRecord(message.params) ? message.params : {};
    if (message.id === undefined) {
      if (message.method === 'notifications/cancelled') this.line(`cancelled request ${String(params.requestId)}`);
      return;
    }
    const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined;
    this.open.set(idKey(message.id), { method: message.method, name, at: Date.now() });
  }

  /** A message to the client; only answers to requests make a line. */
  outbound(message: unknown): void {
    if (!isRecord(message) || 'method' in message) return;
    const key = idKey(message.id);
    const request = this.open.get(key);
    if (!request) return;
    this.open.delete(key);
    const what = `${request.method}${request.name ? ` ${request.name}` : ''}`;
    this.line(`${what} → ${outcomeOf(message)} (${Date.now() - request.at} ms)`);
  }

  /** A request the transport refused before any JSON-RPC answer (403, 404, 413…). */
  refused(status: number, path: string): void {
    this.line(`POST ${path} → HTTP ${status}`);
  }

  line(text: string): void {
    this.print(`[parley] ${clock()} ${text}`);
  }
}

function outcomeOf(message: Record<string, unknown>): string {
  if (isRecord(message.error)) return `error ${String(message.error.code)}: ${clip(String(message.error.message))}`;
  const result = isRecord(message.result) ? message.result : {};
  if (result.resultType === 'input_required') return `input_required (asks ${Object.keys(isRecord(result.inputRequests) ? result.inputRequests : {}).join(', ') || 'nothing'})`;
  if (result.isError === true) {
    const first = Array.isArray(result.content) ? (result.content[0] as { text?: unknown } | undefined) : undefined;
    const code = isRecord(result._meta) && typeof result._meta.code === 'string' ? ` ${result._meta.code}` : '';
    return `tool error${code}: ${clip(String(first?.text ?? ''))}`;
  }
  return 'ok';
}

/** Hooks that log each question as it is asked and each answer as it arrives. */
export function loggingHooks(log: ExchangeLog): Required<ElicitationHooks> {
  return {
    request: [
      (q) => {
        const fields = Object.keys(isRecord(q.requestedSchema?.properties) ? q.requestedSchema.properties : {});
        log.line(`${q.tool} asks ${q.key}: ${JSON.stringify(clip(q.message))}${q.mode === 'url' ? ` (open ${q.url})` : ` (${fields.join(', ')})`}`);
      },
    ],
    result: [(a) => log.line(`${a.tool} got ${a.key}: ${a.result.status}${a.result.content !== undefined ? ` ${clip(JSON.stringify(a.result.content))}` : ''}`)],
  };
}

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
