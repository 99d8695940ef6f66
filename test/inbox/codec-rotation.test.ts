// Persistent questions under a rotated MCP_ELICITATION_SECRET: written under [old], read and answered under [new, old],
// and unreachable under [new] alone; values name their key id.
import { describe, expect, it } from 'vitest';
import { hkdfBytes, keyIdOf, randomBytes, toBase64Url, utf8 } from '../../src/crypto';
import { QuestionCodec } from '../../src/inbox/codec';
import { QuestionStore, type StoredQuestion } from '../../src/inbox/question-store';
import { memoryStore } from '../../src/stores';

const OLD = 'questions-old-secret';
const NEW = 'questions-new-secret';
const subject = 'principal:https://idp#nour';
const question = (): StoredQuestion => ({
  id: 'q-1',
  key: 'deploy-7',
  message: 'Deploy 7?',
  requestedSchema: { type: 'object' },
  createdAt: Date.now(),
  expiresAt: Date.now() + 60_000,
});

describe('persistent questions across a secret rotation', () => {
  it('seals values as v3.<key id>.<iv>.<data>.<tag> under the first secret, and opens them under any listed one', async () => {
    const [old, both] = [new QuestionCodec('p:', OLD), new QuestionCodec('p:', `${NEW},${OLD}`)];
    const key = await old.key('q', subject, 'q-1');
    const sealed = await old.seal({ hello: 'world' }, subject, key);
    expect(sealed).toMatch(new RegExp(`^v3\\.${await keyIdOf(OLD)}\\.`));
    expect(sealed).not.toContain('world');
    expect(await both.open(sealed, subject, key)).toEqual({ hello: 'world' });
    expect(await new QuestionCodec('p:', NEW).open(sealed, subject, key)).toBeUndefined();
    expect(await both.open(sealed, subject, `${key}x`)).toBeUndefined(); // the storage key is the additional data
    expect(await both.keys('q', subject, 'q-1')).toEqual([await both.key('q', subject, 'q-1'), key]);
  });

  it('still opens what releases before the question store sealed: v2.<key id>.<iv>.<ciphertext+tag>, and v1', async () => {
    // Written as inbox/codec.ts wrote it then: HKDF(secret, the fixed salt, `subject:<subject>`), the key as additional data.
    const key = await new QuestionCodec('p:', OLD).key('q', subject, 'q-1');
    const raw = await hkdfBytes(OLD, `subject:${subject}`, 'parley-persistent-questions-v1');
    const aes = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt']);
    const iv = randomBytes(12);
    const body = new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8(key) }, aes, utf8('{"hello":"v2"}')),
    );
    const v2 = `v2.${await keyIdOf(OLD)}.${toBase64Url(iv)}.${toBase64Url(body)}`;
    const codec = new QuestionCodec('p:', `${NEW},${OLD}`);
    expect(await codec.open(v2, subject, key)).toEqual({ hello: 'v2' });
    expect(await codec.open(`v1.${toBase64Url(iv)}.${toBase64Url(body)}`, subject, key)).toEqual({ hello: 'v2' });
    expect(await codec.open(v2, subject, `${key}x`)).toBeUndefined();
    expect(await codec.open(v2, 'another subject', key)).toBeUndefined();
  });

  it('finds, answers and delivers under [new, old] a question written under [old]; [new] alone finds nothing', async () => {
    const backend = memoryStore();
    const before = new QuestionStore(backend, new QuestionCodec('p:', OLD));
    await before.create(subject, question());
    const during = new QuestionStore(backend, new QuestionCodec('p:', `${NEW},${OLD}`));
    expect((await during.byKey(subject, 'deploy-7'))?.message).toBe('Deploy 7?');
    expect((await during.list(subject)).map((q) => q.id)).toEqual(['q-1']);
    expect(await during.answer(subject, 'q-1', { action: 'accept', content: { approve: true }, answeredAt: Date.now() })).toEqual({
      ok: true,
      waiting: false,
    });
    // The open token was taken under the old name: a second answer is refused, whichever instance takes it.
    expect(await before.answer(subject, 'q-1', { action: 'decline', answeredAt: Date.now() })).toEqual({
      ok: false,
      reason: 'already-answered',
    });
    // An instance on [old, new] (mid-rollout) takes the answer [new, old] wrote, under the new secret's name and key.
    expect(await new QuestionStore(backend, new QuestionCodec('p:', `${OLD},${NEW}`)).takeAnswer(subject, 'q-1')).toMatchObject({
      action: 'accept',
    });
    expect(await new QuestionStore(backend, new QuestionCodec('p:', NEW)).byId(subject, 'q-1')).toBeUndefined();
  });
});
