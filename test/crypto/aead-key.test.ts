// parley-mcp/node seals requestState with node:crypto's AES-256-GCM: its bytes must be WebCrypto's, and it must refuse what WebCrypto refuses.
import { describe, expect, it } from 'vitest';
import 'parley-mcp/node'; // registers the native AES-GCM
import { nodeAead } from '../../src/adapters/node-aead';
import { createAeadKey } from '../../src/crypto';

const raw = () => crypto.getRandomValues(new Uint8Array(32));
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const webSeal = async (key: Uint8Array<ArrayBuffer>, iv: Uint8Array<ArrayBuffer>, text: string, aad: string) => {
  const k = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  return new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: new TextEncoder().encode(aad) }, k, new TextEncoder().encode(text)),
  );
};

describe('the AES-256-GCM parley-mcp/node registers', () => {
  it('gives the same bytes as WebCrypto for empty, short, long and non-ASCII text, and opens what WebCrypto sealed', async () => {
    const key = raw();
    const [native, web] = [nodeAead(key), await createAeadKey(key)];
    for (const text of ['', 'x', '{"v":1}', 'é東🎉'.repeat(50), 'y'.repeat(70_000), '\ud800 lone surrogate']) {
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const bytes = await webSeal(key, iv, text, 's1.abcdefgh');
      const [data, tag] = [b64(bytes.slice(0, -16)), b64(bytes.slice(-16))];
      expect(await native.seal(iv, text, 's1.abcdefgh')).toBe(`${data}.${tag}`);
      expect(await web.seal(iv, text, 's1.abcdefgh')).toBe(`${data}.${tag}`);
      for (const aead of [native, web])
        expect(await aead.open(b64(iv), data, tag, 's1.abcdefgh')).toBe(new TextDecoder().decode(new TextEncoder().encode(text)));
    }
  });

  it('opens nothing under another key, IV or additional data, or with a byte of the data or tag changed', async () => {
    const key = raw();
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = await webSeal(key, iv, 'the answers so far', 's1.abcdefgh');
    const [dataBytes, tagBytes] = [sealed.slice(0, -16), sealed.slice(-16)];
    const [data, tag] = [b64(dataBytes), b64(tagBytes)];
    const flip = (bytes: Uint8Array<ArrayBuffer>, at: number) => {
      const copy = bytes.slice();
      copy[at] = copy[at]! ^ 1;
      return copy;
    };
    for (const aead of [nodeAead(key), await createAeadKey(key)]) {
      expect(await aead.open(b64(iv), data, tag, 's1.abcdefgh')).toBe('the answers so far');
      expect(await aead.open(b64(iv), data, tag, 's1.abcdefgi')).toBeUndefined();
      expect(await aead.open(b64(flip(iv, 0)), data, tag, 's1.abcdefgh')).toBeUndefined();
      expect(await aead.open(b64(iv), b64(flip(dataBytes, 3)), tag, 's1.abcdefgh')).toBeUndefined();
      expect(await aead.open(b64(iv), data, b64(flip(tagBytes, 15)), 's1.abcdefgh')).toBeUndefined();
      expect(await aead.open(b64(iv), data, b64(tagBytes.slice(0, 12)), 's1.abcdefgh')).toBeUndefined();
    }
    expect(await nodeAead(raw()).open(b64(iv), data, tag, 's1.abcdefgh')).toBeUndefined();
  });
});
