// The one SSE encoder: what each stream's events look like on the wire, byte for byte.
import { describe, expect, it } from 'vitest';
import { KEEPALIVE, sseComment, sseFrame, sseMessage } from '../../src/protocol';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('sseFrame', () => {
  it('writes the fields given, in order, ended by a blank line', () => {
    expect(text(sseFrame({ id: 's:3', event: 'questions', data: '{"a":1}' }))).toBe('id: s:3\nevent: questions\ndata: {"a":1}\n\n');
    expect(text(sseFrame({ retry: 2000 }))).toBe('retry: 2000\n\n');
    // A resumable stream's priming event: an id, and empty data.
    expect(text(sseFrame({ id: 's:0', data: '' }))).toBe('id: s:0\ndata: \n\n');
  });

  it('sends a text with line breaks as one data line per line, so no line can end the event early', () => {
    expect(text(sseFrame({ data: 'one\n\ntwo' }))).toBe('data: one\ndata: \ndata: two\n\n');
  });

  it('writes comments and JSON-RPC messages', () => {
    expect(text(sseComment('ping'))).toBe(': ping\n\n');
    expect(text(KEEPALIVE)).toBe(': keepalive\n\n');
    expect(text(sseMessage({ jsonrpc: '2.0', method: 'x' }))).toBe('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n');
  });
});
