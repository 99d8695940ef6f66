// Responder.result writes the envelope's fixed parts as text and serializes only the id and the result: the bytes must
// be JSON.stringify's of the whole message, whatever the id and the result hold.
import { describe, expect, it } from 'vitest';
import { Responder } from '../../src/protocol/respond';

const sent: { text: string | null; status: number; headers: Record<string, string> }[] = [];
const responder = new Responder((text, status, headers) => {
  sent.push({ text, status, headers });
  return new Response(text, { status, headers });
});

const RESULTS: unknown[] = [
  { resultType: 'complete', content: [{ type: 'text', text: 'Hello, "quoted" \u2028 line\n' }] },
  {},
  { when: new Date(0), nested: { list: [1, null, 'x'] }, skipped: undefined },
  { toJSON: () => ({ replaced: true }) },
];

describe('Responder.result', () => {
  // Numbers as JSON writes them (-0 as 0, exponents, the shortest round trip), and the non-finite ones as null.
  const NUMBERS = [1, 0, -0, -3, 2.5, 1e21, 1e-7, 123456789012345680000, 0.1 + 0.2, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY];
  for (const id of [...NUMBERS, 'abc', '', 'with "quotes" and \\ backslash', '\u00e9\u{1F600}'])
    for (const result of RESULTS)
      it(`writes JSON.stringify's bytes for id ${Object.is(id, -0) ? '-0' : typeof id === 'number' ? String(id) : JSON.stringify(id)} and ${JSON.stringify(result)}`, async () => {
        sent.length = 0;
        const response = responder.result(id, result);
        const expected = JSON.stringify({ jsonrpc: '2.0', id, result });
        expect(sent[0]).toEqual({ text: expected, status: 200, headers: { 'content-type': 'application/json' } });
        expect(await response.text()).toBe(expected);
      });

  it('falls back to the whole message when the result serializes to nothing', () => {
    sent.length = 0;
    responder.result(7, undefined);
    expect(sent[0]!.text).toBe('{"jsonrpc":"2.0","id":7}');
  });
});
