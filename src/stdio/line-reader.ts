// Reading newline-delimited messages from a stream, with a size limit so a line without an end cannot eat memory, each
// line decoded as strict UTF-8.
import type { Readable } from 'node:stream';
import { decodeUtf8 } from '../protocol';

interface LineHandlers {
  line(text: string): void;
  /** A line longer than the limit was dropped (up to its newline). */
  oversize(): void;
  /** A line that is not UTF-8 was dropped: a replaced character would change what the client sent. */
  notUtf8(): void;
  end(): void;
}

const NEWLINE = 0x0a;

/** Splits bytes, not text, so a character split across chunks is whole again before its line is decoded. */
export function readLines(input: Readable, maxBytes: number, on: LineHandlers): () => void {
  let pieces: Buffer[] = [];
  let size = 0;
  let dropping = false;
  const emit = (bytes: Buffer, last = false) => {
    let text: string;
    try {
      text = decodeUtf8(bytes);
    } catch {
      on.notUtf8();
      return;
    }
    if (last && text.trim() === '') return;
    on.line(text.endsWith('\r') ? text.slice(0, -1) : text);
  };
  const onData = (data: Buffer | string) => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data; // a stream someone set an encoding on
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (dropping) {
        dropping = false;
        continue;
      }
      const whole = size === 0 ? piece : Buffer.concat([...pieces, piece], size + piece.length);
      pieces = [];
      size = 0;
      if (whole.length > maxBytes) on.oversize();
      else emit(whole);
    }
    if (dropping || start === chunk.length) return;
    pieces.push(chunk.subarray(start));
    size += chunk.length - start;
    if (size > maxBytes) {
      pieces = [];
      size = 0;
      dropping = true;
      on.oversize();
    }
  };
  let ended = false;
  const onEnd = () => {
    if (ended) return;
    ended = true;
    if (size > 0 && !dropping) emit(Buffer.concat(pieces, size), true);
    pieces = [];
    size = 0;
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
