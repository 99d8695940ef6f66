// base64url by table: the same text as Node's own encoder for every length, and nothing else decodes.
import { describe, expect, it } from 'vitest';
import { fromBase64Url, toBase64Url } from '../../src/crypto';

describe('base64url', () => {
  it("writes and reads what Node's Buffer does, for every length up to 300 bytes", () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + length * 7) & 0xff);
      const text = Buffer.from(bytes).toString('base64url');
      expect(toBase64Url(bytes)).toBe(text);
      expect(fromBase64Url(text)).toEqual(bytes);
    }
  });

  it('refuses padding, the standard alphabet, other characters and impossible lengths', () => {
    for (const text of ['ab==', 'ab+c', 'ab/c', 'a b', 'abcde', 'é', 'abc\n']) expect(fromBase64Url(text)).toBeUndefined();
    expect(fromBase64Url('')).toEqual(new Uint8Array());
  });
});
