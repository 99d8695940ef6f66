// Reading newline-delimited messages from a stream, with a size limit so a line without an end cannot eat memory.
import type { Readable } from 'node:stream';

export interface LineHandlers {
  line(text: string): void;
  /** A line longer than the limit was dropped (up to its newline). */
  oversize(): void;
  end(): void;
}

export function readLines(input: Readable, maxBytes: number, on: LineHandlers): () => void {
  input.setEncoding('utf8');
  let buffer = '';
  let dropping = false;
  const onData = (chunk: string) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      if (dropping) {
        dropping = false;
        continue;
      }
      const text = buffer + piece;
      buffer = '';
      if (text.length > maxBytes) on.oversize();
      else on.line(text.endsWith('\r') ? text.slice(0, -1) : text);
    }
    if (dropping) return;
    buffer += chunk.slice(start);
    if (buffer.length > maxBytes) {
      buffer = '';
      dropping = true;
      on.oversize();
    }
  };
  let ended = false;
  const onEnd = () => {
    if (ended) return;
    ended = true;
    if (buffer.trim() !== '' && !dropping) on.line(buffer);
    buffer = '';
    on.end();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  return () => {
    input.off('data', onData);
    input.off('end', onEnd);
    input.off('close', onEnd);
  };
}
