// jsonString writes a string's JSON with no call into JSON.stringify when nothing needs escaping: its text must be
// JSON.stringify's for every string, and canonicalJson's leaves (written with it) JSON.stringify's for every value.
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/elicitation/request-state';
import { jsonString } from '../../src/protocol';

const STRINGS = [
  '',
  'plain ascii ~ !',
  'a "quote"',
  'back\\slash',
  'tab\tnew\nline',
  '\u0000\u001f',
  'del \u007f',
  'caf\u00e9',
  '\u2028\u2029',
  '\u{1F600}',
  'lone \ud800 high',
  'lone \udc00 low',
  'json:{"id":"A-1"}',
];

describe('jsonString', () => {
  for (const text of STRINGS)
    it(`writes JSON.stringify's text for ${JSON.stringify(text)}`, () => expect(jsonString(text)).toBe(JSON.stringify(text)));

  it('every character code from 0 to 0x3000, and each surrogate alone, as JSON.stringify writes it', () => {
    for (let c = 0; c < 0x3000; c++) expect(jsonString(`x${String.fromCharCode(c)}y`)).toBe(JSON.stringify(`x${String.fromCharCode(c)}y`));
    for (let c = 0xd800; c < 0xe000; c += 0x7f) expect(jsonString(String.fromCharCode(c))).toBe(JSON.stringify(String.fromCharCode(c)));
  });
});

describe('canonicalJson leaves', () => {
  const LEAVES: unknown[] = [...STRINGS, 0, -0, 1.5, -3, 1e21, 1e-7, 0.1 + 0.2, Number.NaN, Number.NEGATIVE_INFINITY, true, false, null];
  for (const leaf of LEAVES)
    it(`writes ${typeof leaf === 'string' ? JSON.stringify(leaf) : Object.is(leaf, -0) ? '-0' : String(leaf)} as JSON.stringify does, alone and as a key's value`, () => {
      expect(canonicalJson(leaf)).toBe(JSON.stringify(leaf));
      expect(canonicalJson({ [String(leaf)]: leaf })).toBe(JSON.stringify({ [String(leaf)]: leaf }));
    });
});
