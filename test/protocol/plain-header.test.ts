import { describe, expect, it } from 'vitest';
import { decodeHeader, isPlainHeader } from '../../src/protocol/modern-checks';

// What the fast path of the header checks may take as it was sent: exactly the values decodeHeader gives back
// unchanged. The loop replaced a regular expression; this is that expression, kept here as the statement of the rule.
const RULE = /^(?!=\?)[!-~](?:[ -~]*[!-~])?$/;

const SAMPLES = [
  '',
  'a',
  ' ',
  '2026-07-28',
  'tools/call',
  'greet',
  ' greet',
  'greet ',
  'two words',
  '=?base64?Z3JlZXQ=?=',
  '=',
  '=?',
  '?=',
  'a=?b',
  'tab\there',
  'new\nline',
  '\u007f',
  'caf\u00e9',
  '\u{1F600}',
  '~!',
  'x'.repeat(300),
];

describe('isPlainHeader', () => {
  it.each(SAMPLES)('agrees with the rule for %j', (value) => {
    expect(isPlainHeader(value)).toBe(RULE.test(value));
  });

  it('agrees with the rule on every one- and two-character string of the first 256 code points', () => {
    for (let a = 0; a < 256; a++) {
      const one = String.fromCharCode(a);
      expect(isPlainHeader(one), JSON.stringify(one)).toBe(RULE.test(one));
      for (let b = 0; b < 256; b++) {
        const two = one + String.fromCharCode(b);
        if (isPlainHeader(two) !== RULE.test(two)) expect.fail(`disagrees on ${JSON.stringify(two)}`);
      }
    }
  });

  it('takes only what decodeHeader gives back unchanged', () => {
    for (const value of SAMPLES) if (isPlainHeader(value)) expect(decodeHeader(value)).toBe(value);
  });
});
