// Reading a request body once, with a size limit enforced while it streams in, as strict UTF-8.
import { type McpWireError, wireError } from './errors';
import { tooLarge } from './respond';

/** Fatal: bytes that are not UTF-8 throw a TypeError instead of becoming U+FFFD. Drops a leading BOM, as text() does. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body's bytes as text, refusing any that are not UTF-8 (JSON must be, RFC 8259 §8.1): a replaced character would
 * change what the client sent. Throws a TypeError on such bytes, which readBody answers with -32700.
 */
export const decodeUtf8 = (bytes: Uint8Array | ArrayBuffer): string => UTF8.decode(bytes);

/**
 * A host's own way to read the body, decoded with `decodeUtf8`; undefined once it passes `limit` bytes. The host reads
 * its own request's headers: one that declares a Content-Length past `limit` may answer undefined at once, unread.
 */
export type BodyReader = (limit: number) => Promise<string | undefined>;

/** What decodeUtf8 throws is -32700; a body that fails to arrive rejects with another error, which goes on. */
function notUtf8(error: unknown): McpWireError {
  if (error instanceof TypeError) return wireError('PARSE_ERROR', 'Parse error: the body is not valid UTF-8');
  throw error;
}

/**
 * The body as text: -32700 when it is not UTF-8, 413 past `limit` bytes (a request's, or a response Parley fetched).
 * Not async: a host's read is the answer's one promise.
 */
export function readBody(request: Request | Response, limit: number, hostRead?: BodyReader): Promise<string | McpWireError> {
  // Fast path: the host reads its own socket, with no Fetch Request or web stream built for it, and its own headers
  // (parley-mcp/node refuses a declared length past the limit before reading: node-listen.ts).
  if (hostRead) return hostRead(limit).then((text) => text ?? tooLarge(limit), notUtf8);
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return Promise.resolve(tooLarge(limit));
  return readText(request, limit, declared).catch(notUtf8);
}

async function readText(request: Request | Response, limit: number, declared: string | null): Promise<string | McpWireError> {
  if (!request.body) return '';
  // Fast path: a declared length within the limit lets the runtime read it whole.
  if (declared !== null) {
    const bytes = await request.arrayBuffer();
    return bytes.byteLength > limit ? tooLarge(limit) : decodeUtf8(bytes);
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeUtf8(bytes);
}
