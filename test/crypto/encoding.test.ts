// base64url by table: the same text as Node's own encoder for every length, and nothing else decodes.
import { describe, expect, it } from 'vitest';
import 'parley/node'; // registers Buffer's text codec, which must give the same text as the Web one
import { base64UrlToText, fromBase64Url, fromUtf8, textToBase64Url, toBase64Url, utf8 } from '../../src/crypto';

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

describe("parley/node's text codec", () => {
  it('encodes and decodes text exactly as the Web codec does, and refuses the same inputs', () => {
    for (const text of ['', 'a', 'ab', '{"v":1,"answers":{}}', 'Grüße, 東京 🎉', '\u0000\uFFFF', 'x'.repeat(1000)]) {
      const encoded = textToBase64Url(text);
      expect(encoded).toBe(toBase64Url(utf8(text)));
      expect(base64UrlToText(encoded)).toBe(text);
      expect(base64UrlToText(encoded)).toBe(fromUtf8(fromBase64Url(encoded)!));
    }
    for (const text of ['ab==', 'ab+c', 'a b', 'abcde', 'é']) expect(base64UrlToText(text)).toBeUndefined();
  });
});
