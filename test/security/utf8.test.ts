// Issue #31 (observed, decided): JSON text must be UTF-8 (RFC 8259 §8.1). Bytes that are not are refused with -32700,
// on HTTP (the Node adapter's own reader, a declared length, a streamed body) and on stdio, instead of being read with
// U+FFFD in their place, which would change what the client sent. Valid characters, split anywhere, still arrive whole.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';
import { serveStdio } from 'parley-mcp/stdio';
import { LEGACY } from '../helpers/legacy';
import { meta, read } from '../helpers/requests';
import { inboxServer, ORIGIN } from '../inbox/inbox-helpers';
import { config } from './fixture';

/** Byte sequences no UTF-8 decoder may accept. */
const INVALID: [string, number[]][] = [
  ['a byte never used (0xFF)', [0xff]],
  ['a lead byte without its continuation', [0xc3, 0x28]],
  ['an overlong "/"', [0xc0, 0xaf]],
  ['a UTF-16 surrogate', [0xed, 0xa0, 0x80]],
  ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['a character cut short', [0xe2, 0x82]],
];
const HTTP_REFUSAL = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid UTF-8' } };
const STDIO_REFUSAL = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the message is not valid UTF-8' } };

/** A Buffer's bytes as a plain Uint8Array, which fetch and Request take as a body. */
const bytesOf = (buffer: Buffer) => new Uint8Array(buffer);

/** The JSON of a message with `bytes` inside one of its strings (the prompt argument `who`). */
function greeting(bytes: number[]): Uint8Array<ArrayBuffer> {
  const params = { _meta: meta(), name: 'greet', arguments: { who: '\u0000' } };
  const [before, after] = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'prompts/get', params }).split('\\u0000');
  return bytesOf(Buffer.concat([Buffer.from(before!), Buffer.from(bytes), Buffer.from(after!)]));
}
const MODERN_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'prompts/get',
  'mcp-name': 'greet',
};
const greetingText = (body: any) => body.result.messages[0].content.text as string;
const VALID = 'Zoë 😀 日本';

describe('over HTTP', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(config, { port: 0 });
  });
  afterAll(() => server?.close());
  const handler = createFetchHandler(config);

  const ways: [string, (body: Uint8Array<ArrayBuffer>) => Promise<Response>][] = [
    ['parley-mcp/node', (body) => fetch(server.url, { method: 'POST', headers: MODERN_HEADERS, body })],
    [
      'a declared length',
      (body) =>
        handler(
          new Request(`${ORIGIN}/mcp`, { method: 'POST', headers: { ...MODERN_HEADERS, 'content-length': String(body.length) }, body }),
        ),
    ],
    [
      'a streamed body',
      (body) =>
        handler(
          new Request(`${ORIGIN}/mcp`, {
            method: 'POST',
            headers: MODERN_HEADERS,
            body: new ReadableStream({
              start(controller) {
                // Split inside the first multi-byte character: the bytes are joined before they are decoded.
                controller.enqueue(body.subarray(0, body.indexOf(0xc3) + 1));
                controller.enqueue(body.subarray(body.indexOf(0xc3) + 1));
                controller.close();
              },
            }),
            duplex: 'half',
          } as RequestInit),
        ),
    ],
  ];

  it.each(ways)('%s: refuses every invalid sequence with -32700, and reads valid characters whole', async (_, send) => {
    for (const [what, bytes] of INVALID) {
      const { status, body } = await read(await send(greeting(bytes)));
      expect({ what, status, body }).toEqual({ what, status: 400, body: HTTP_REFUSAL });
    }
    const valid = await read(await send(greeting([...Buffer.from(VALID)])));
    expect(greetingText(valid.body)).toBe(`Hello ${VALID}`);
    const bom = await read(await send(bytesOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), greeting([...Buffer.from(VALID)])]))));
    expect(greetingText(bom.body)).toBe(`Hello ${VALID}`);
  });

  it('refuses it from a client before 2026-07-28 too, and in an answer posted to the inbox', async () => {
    const init = bytesOf(
      Buffer.concat([
        Buffer.from(
          `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${LEGACY}","capabilities":{},"clientInfo":{"name":"`,
        ),
        Buffer.from([0xff]),
        Buffer.from('","version":"1"}}}'),
      ]),
    );
    const refused = await read(await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: init }));
    expect(refused).toEqual({ status: 400, body: HTTP_REFUSAL });

    const inbox = inboxServer();
    const response = await inbox.request('/_frontmcp/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bytesOf(Buffer.concat([Buffer.from('{"code":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')])),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_json', message: 'Parse error: the body is not valid UTF-8' });
  });
});

describe('over stdio', () => {
  it('refuses a line that is not UTF-8 with -32700, and joins a character split across chunks', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let out = '';
    output.on('data', (c: Buffer) => (out += c.toString()));
    const stdio = await serveStdio(config, { input, output, exitOnClose: false });
    const answers = () =>
      out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
    for (const [, bytes] of INVALID) input.write(Buffer.concat([greeting(bytes), Buffer.from('\n')]));
    const valid = Buffer.concat([greeting([...Buffer.from(VALID)]), Buffer.from('\n')]);
    const split = valid.indexOf(0xf0) + 2; // inside the emoji's four bytes
    input.write(valid.subarray(0, split));
    await new Promise((r) => setTimeout(r, 20));
    input.write(valid.subarray(split));
    await vi.waitFor(() => expect(answers()).toHaveLength(INVALID.length + 1));
    expect(answers().slice(0, INVALID.length)).toEqual(INVALID.map(() => STDIO_REFUSAL));
    expect(greetingText(answers()[INVALID.length])).toBe(`Hello ${VALID}`);
    input.end();
    await stdio.closed;
  });
});
