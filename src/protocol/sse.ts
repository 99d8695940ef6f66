// Server-sent events as bytes: the one encoder every stream writes with (both eras' MCP streams, the inbox's events).
const encoder = new TextEncoder();

/** The fields of one event; each one left out is not written. */
interface SseFields {
  id?: string;
  event?: string;
  /** The event's data: JSON is one line; a text with line breaks goes out as one `data:` line per line. */
  data?: string;
  /** How long a client waits before it reconnects, in ms. */
  retry?: number;
}

/** One event, ended by its blank line. */
export function sseFrame({ id, event, data, retry }: SseFields): Uint8Array<ArrayBuffer> {
  let text = '';
  if (retry !== undefined) text += `retry: ${retry}\n`;
  if (id !== undefined) text += `id: ${id}\n`;
  if (event !== undefined) text += `event: ${event}\n`;
  // Fast path: JSON has no line break, so the split is skipped.
  if (data !== undefined) text += data.includes('\n') ? `data: ${data.split('\n').join('\ndata: ')}\n` : `data: ${data}\n`;
  return encoder.encode(`${text}\n`);
}

/** A comment line, which clients ignore: a keepalive, or a note for whoever reads the stream. */
export const sseComment = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(`: ${text}\n\n`);

/** One JSON-RPC message as an SSE `message` event. No id: 2026-07-28 streams are not resumable. */
export const sseMessage = (message: unknown): Uint8Array<ArrayBuffer> => sseFrame({ event: 'message', data: JSON.stringify(message) });

/** An SSE comment now and then while nothing happens: proxies keep the connection, and workerd sees it is not hung. */
export const KEEPALIVE_MS = 15_000;
export const KEEPALIVE = sseComment('keepalive');
