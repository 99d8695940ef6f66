// base64url by table: the same text as Node's own encoder for every length, and nothing else decodes.
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { canonicalEnd, fromBase64Url, toBase64Url } from '../../src/crypto';

describe('base64url', () => {
  it("writes and reads what Node's Buffer does, for every length up to 300 bytes", () => {
    for (let length = 0; length <= 300; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + length * 7) & 0xff);
      const text = Buffer.from(bytes).toString('base64url');
      expect(toBase64Url(bytes)).toBe(text);
      expect(fromBase64Url(text)).toEqual(bytes);
    }
    // Text past SHORT's 1,024 characters is decoded in one call, not made from its character codes.
    for (const length of [767, 768, 769, 3_000, 100_001]) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + 3) & 0xff);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  // Issue #48: written by `+=` four characters at a time, each sealed record a store kept was a tree of joined strings,
  // ~10 KB of heap for ~650 characters: most of an older client's pending question.
  it('writes flat text: kept encodings hold about their own length of heap, not a tree of joined strings', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const bytes = Uint8Array.from({ length: 480 }, (_, i) => (i * 151) & 0xff);
    gc();
    const before = getHeapStatistics().used_heap_size;
    const kept = Array.from({ length: 2_000 }, (_, i) => {
      bytes.set([i & 0xff, i >> 8]);
      return toBase64Url(bytes);
    });
    gc();
    const perText = (getHeapStatistics().used_heap_size - before) / kept.length;
    expect(kept[1_999]!.length).toBe(640);
    expect(perText).toBeLessThan(1_200); // flat: ~660 bytes (a header and its characters); joined: ~10,000
  });

  it('refuses padding, the standard alphabet, other characters and impossible lengths', () => {
    for (const text of ['ab==', 'ab+c', 'ab/c', 'a b', 'abcde', 'é', 'abc\n']) expect(fromBase64Url(text)).toBeUndefined();
    expect(fromBase64Url('')).toEqual(new Uint8Array());
  });
});

describe('canonicalEnd', () => {
  it('holds for what toBase64Url writes, and not for another spelling of the same bytes or an impossible length', () => {
    for (let length = 0; length <= 40; length++) {
      const text = toBase64Url(Uint8Array.from({ length }, (_, i) => (i * 97 + 13) & 0xff));
      expect(canonicalEnd(text)).toBe(true);
      const left = text.length % 4;
      if (left === 0) continue;
      // The last character with an unused low bit set: Node decodes it to the same bytes, and it is refused.
      const other =
        text.slice(0, -1) +
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[
          'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(text.at(-1)!) | 1
        ];
      expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(text, 'base64url'));
      expect(canonicalEnd(other)).toBe(false);
    }
    expect(canonicalEnd('abcde')).toBe(false);
    expect(canonicalEnd('x.AQ.y', 2, 4)).toBe(true);
    expect(canonicalEnd('x.AR.y', 2, 4)).toBe(false);
  });
});
