// Reading a request body once, with a size limit enforced while it streams in.
import type { McpWireError } from './errors';
import { tooLarge } from './respond';

/** A host's own way to read the body; undefined once it passes `limit` bytes. */
export type BodyReader = (limit: number) => Promise<string | undefined>;

export async function readBody(request: Request, limit: number, hostRead?: BodyReader): Promise<string | McpWireError> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return tooLarge(limit);
  // Fast path: the host reads its own socket, with no Fetch Request or web stream built for it.
  if (hostRead) return (await hostRead(limit)) ?? tooLarge(limit);
  if (!request.body) return '';
  // Fast path: a declared length within the limit lets the runtime read it whole.
  if (declared !== null) {
    const text = await request.text();
    return text.length > limit ? tooLarge(limit) : text;
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
  return new TextDecoder().decode(bytes);
}
