// The 2026-07-28 requests the harness sends, and checks that a response body carries the expected result.
export const MODERN = '2026-07-28';

const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};
/** The same envelope declaring the tasks extension in the request's own `_meta` (row 10). */
const TASK_META = {
  ...META,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

export interface WireRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A POST with the headers and _meta envelope a 2026-07-28 client sends; `tasks` declares the tasks extension, and a
 * task's requests name the task (`Mcp-Name: <taskId>`). */
export function modernRequest(method: string, params: Record<string, unknown> = {}, path = '/mcp', tasks = false): WireRequest {
  const named = params.taskId ?? params.name;
  const name = typeof named === 'string' ? named : undefined;
  return {
    method: 'POST',
    path,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: tasks ? TASK_META : META } }),
  };
}

/** The data of a server-sent-events body that carries one message (a client that accepts text/event-stream may get one). */
function sseData(body: string): string {
  const data = body.split('\n').filter((line) => line.startsWith('data:'));
  return data.length === 1 ? data[0]!.slice(5).trim() : '';
}

/** The JSON-RPC result of a body (JSON, or an event stream of that one message), or undefined when it is not a JSON-RPC success for id 1. */
export function resultOf(body: string): Record<string, any> | undefined {
  try {
    const message = JSON.parse(body.charCodeAt(0) === 123 /* { */ ? body : sseData(body)) as {
      jsonrpc?: unknown;
      id?: unknown;
      result?: unknown;
    };
    if (message.jsonrpc !== '2.0' || message.id !== 1 || typeof message.result !== 'object' || message.result === null) return undefined;
    return message.result as Record<string, any>;
  } catch {
    return undefined;
  }
}

/** True when a tools/call result is complete and its first content block is exactly `text`. */
export const isTextResult = (result: Record<string, any> | undefined, text: string): boolean =>
  !!result &&
  result.resultType !== 'input_required' &&
  !result.isError &&
  result.content?.[0]?.type === 'text' &&
  result.content[0].text === text;
