// requestState: sealed (AES-256-GCM) or signed (HMAC), naming its key; the arguments it binds a round to; rotation.
import { describe, expect, it, vi } from 'vitest';
import 'parley-mcp/node';
import { keyIdOf } from '../../src/crypto';
import {
  canonicalJson,
  digestArguments,
  MAX_STATE_LENGTH,
  openState,
  sealState,
  type StateForm,
} from '../../src/elicitation/request-state';
import { createStateKeys } from '../../src/elicitation/state-keys';

describe('the arguments a requestState is bound to', () => {
  it('writes JSON with its keys sorted at every level, and arrays in their order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
    expect(canonicalJson([])).toBe('[]');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson({ 'é"': 'line\nbreak' })).toBe('{"é\\"":"line\\nbreak"}');
    expect(canonicalJson({ gone: undefined })).toBe('{"gone":null}');
  });

  it('gives one digest for the same arguments in any order, another for other arguments; long ones hashed', async () => {
    expect(await digestArguments({ id: 'T-1', force: true })).toBe(await digestArguments({ force: true, id: 'T-1' }));
    expect(await digestArguments({ id: 'T-1' })).toBe('json:{"id":"T-1"}');
    expect(await digestArguments({ id: 'T-2' })).not.toBe(await digestArguments({ id: 'T-1' }));
    const long = { text: 'x'.repeat(200) };
    expect(await digestArguments(long)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await digestArguments({ ...long, more: 1 })).not.toBe(await digestArguments(long));
  });
});

const binding = { caller: 'anonymous', method: 'tools/call', name: 'close.ticket', digest: 'json:{"id":"T.1"}' };
const answers = { 'elicitation-1': { action: 'accept', content: { note: 'v1.2. Done.' } } };

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Changes one character at a position, to another base64url character. */
const changeAt = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);

describe.each<StateForm>(['sealed', 'signed'])('a %s requestState', (form) => {
  it('opens with the answers it was sealed with, dots and all, and says why when it does not', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const state = await sealState(keys, form, binding, { answers }, 60_000);
    expect(await openState(keys, state, binding)).toEqual({ ok: true, answers });
    expect(await openState(keys, state, { ...binding, digest: 'json:{"id":"T.2"}' })).toEqual({
      ok: false,
      reason: 'issued for other arguments',
    });
    expect(await openState(keys, state, { ...binding, caller: 'iss#sam' })).toEqual({ ok: false, reason: 'issued to another caller' });
    expect(await openState(keys, state, { ...binding, method: 'prompts/get' })).toEqual({
      ok: false,
      reason: 'issued for another request',
    });
    expect(await openState(keys, state, { ...binding, name: 'delete.ticket' })).toEqual({
      ok: false,
      reason: 'issued for another request',
    });
    expect(await openState(keys, await sealState(keys, form, binding, { answers }, -1), binding)).toEqual({ ok: false, reason: 'expired' });
  });

  it('names the key that issued it, and opens under any listed key: [old] → [new, old] → [new]', async () => {
    const [old, next] = [await createStateKeys(['old-secret']), await createStateKeys(['new-secret', 'old-secret'])];
    const state = await sealState(old, form, binding, { answers }, 60_000);
    const oldId = await keyIdOf('old-secret');
    expect(oldId).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(state).toContain(`.${oldId}.`);
    expect(await openState(next, state, binding)).toEqual({ ok: true, answers });
    // What the rotated instance issues names the new key, which the old instance does not hold.
    const fresh = await sealState(next, form, binding, { answers }, 60_000);
    expect(fresh).toContain(`.${await keyIdOf('new-secret')}.`);
    expect(await openState(old, fresh, binding)).toMatchObject({ ok: false, unknownKey: await keyIdOf('new-secret') });
    // Once the old secret is gone from the list, its states do not open, saying which key they named.
    const retired = await openState(await createStateKeys(['new-secret']), state, binding);
    expect(retired).toEqual({ ok: false, reason: `issued under key id ${oldId}, which this instance does not list`, unknownKey: oldId });
    expect(retired.ok || retired.malformed).toBeFalsy();
  });

  it('refuses the conformance suite\'s tampering ("-TAMPERED" appended) and other shapes no Parley issues as malformed', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const state = await sealState(keys, form, binding, { answers }, 60_000);
    const cut = state.lastIndexOf('.');
    for (const bad of [
      `${state}-TAMPERED`,
      `${state}A`,
      state.slice(0, -1),
      `${state.slice(0, cut)}.${state.slice(cut + 2)}+`,
      state.slice(0, cut),
      `.${state.slice(cut + 1)}`,
      'no-dots',
    ])
      expect(await openState(keys, bad, binding), bad.slice(-30)).toEqual({ ok: false, reason: 'malformed', malformed: true });
  });

  it('refuses a state over the size cap before any HMAC or AES work', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const state = await sealState(
      keys,
      form,
      binding,
      { answers: { big: { action: 'accept', content: { text: 'x'.repeat(MAX_STATE_LENGTH) } } } },
      60_000,
    );
    const decrypt = vi.spyOn(crypto.subtle, 'decrypt');
    const sign = vi.spyOn(keys.primary.hmac, 'sign');
    try {
      expect(await openState(keys, state, binding)).toEqual({ ok: false, reason: `larger than ${MAX_STATE_LENGTH} characters` });
      expect(decrypt).not.toHaveBeenCalled();
      expect(sign).not.toHaveBeenCalled();
    } finally {
      decrypt.mockRestore();
      sign.mockRestore();
    }
  });
});

describe('a sealed requestState', () => {
  it('is `s1.<key id>.<iv>.<ciphertext>.<tag>`, with a fresh IV each time', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const [one, two] = [
      await sealState(keys, 'sealed', binding, { answers }, 60_000),
      await sealState(keys, 'sealed', binding, { answers }, 60_000),
    ];
    expect(one).toMatch(/^s1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(one.split('.')[2]).not.toBe(two.split('.')[2]);
    expect(one.split('.')[3]).not.toBe(two.split('.')[3]);
  });

  it('opens at every length, and refuses another spelling of the same bytes in the last character of its data or tag', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    for (let n = 0; n < 8; n++) {
      const sized = { 'elicitation-1': { action: 'accept', content: { note: 'x'.repeat(n) } } };
      const state = await sealState(keys, 'sealed', binding, { answers: sized }, 60_000);
      expect(await openState(keys, state, binding)).toEqual({ ok: true, answers: sized });
      const [head, data, tag] = [state.slice(0, 29), state.slice(29, -23), state.slice(-22)];
      // Setting the lowest bit of a last character changes only bits a decoder ignores, where the length leaves some.
      const respelled = (text: string) => text.slice(0, -1) + BASE64URL[BASE64URL.indexOf(text.at(-1)!) | 1];
      expect(Buffer.from(respelled(tag), 'base64url')).toEqual(Buffer.from(tag, 'base64url'));
      expect(await openState(keys, `${head}${data}.${respelled(tag)}`, binding)).toMatchObject({ reason: 'malformed' });
      if (data.length % 4 !== 0)
        expect(await openState(keys, `${head}${respelled(data)}.${tag}`, binding)).toMatchObject({ reason: 'malformed' });
    }
  });

  it('does not open when a byte of its IV, ciphertext or tag changed, or its key id names another listed key', async () => {
    const keys = await createStateKeys(['state-test-secret', 'older-secret']);
    const state = await sealState(keys, 'sealed', binding, { answers }, 60_000);
    const [, id, iv, data, tag] = state.split('.') as string[];
    const at = (part: number) => state.split('.').slice(0, part).join('.').length + 1;
    for (const changed of [changeAt(state, at(2) + 3), changeAt(state, at(3) + 5), changeAt(state, at(4) + 4)])
      expect(await openState(keys, changed, binding)).toEqual({ ok: false, reason: 'altered: its seal does not open' });
    // The key id is the additional data: naming the other listed key opens nothing.
    const swapped = ['s1', await keyIdOf('older-secret'), iv, data, tag].join('.');
    expect(await openState(keys, swapped, binding)).toEqual({ ok: false, reason: 'altered: its seal does not open' });
    expect(id).toBe(await keyIdOf('state-test-secret'));
  });

  it('shows no answer, argument, tool name or caller in the token, raw or as base64, base64url or hex', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const secrets = { answer: 'Priya-Krishnan-7731', argument: 'TICKET-88412', tool: 'reassign_ticket_now', caller: 'sam@example.org' };
    const digest = await digestArguments({ id: secrets.argument });
    expect(digest).toContain(secrets.argument); // short arguments bind verbatim: only the seal hides them
    const token = await sealState(
      keys,
      'sealed',
      { caller: `https://idp#${secrets.caller}`, method: 'tools/call', name: secrets.tool, digest },
      { answers: { 'elicitation-1': { action: 'accept', content: { agent: secrets.answer } } } },
      60_000,
    );
    for (const [what, text] of Object.entries(secrets)) {
      const bytes = Buffer.from(text);
      // Every alignment of base64: the text may start at any byte offset of what was encoded.
      const forms = [text, bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
      for (const pad of ['', 'x', 'xy']) {
        const encoded = Buffer.from(pad + text).toString('base64');
        const skip = Math.ceil((pad.length * 4) / 3) + 1;
        forms.push(
          encoded.slice(skip, -3),
          Buffer.from(pad + text)
            .toString('base64url')
            .slice(skip, -3),
        );
      }
      for (const form of forms) expect(token, `${what} as ${form}`).not.toContain(form);
      expect(token.toLowerCase()).not.toContain(text.toLowerCase());
    }
    // The signed form, for contrast, carries them in the clear.
    const signed = await sealState(
      keys,
      'signed',
      { ...binding, name: secrets.tool },
      { answers: { a: { action: 'accept', content: { agent: secrets.answer } } } },
      60_000,
    );
    expect(signed).toContain(secrets.answer);
    expect(signed).toContain(secrets.tool);
  });
});

describe('a signed requestState', () => {
  it('is `<payload JSON>.<key id>.<HMAC>`, and does not open when a byte of the payload changed', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const state = await sealState(keys, 'signed', binding, { answers }, 60_000);
    expect(state).toMatch(new RegExp(`^\\{.*\\}\\.${await keyIdOf('state-test-secret')}\\.[A-Za-z0-9_-]{43}$`));
    expect(await openState(keys, state.replace('v1.2', 'v1.3'), binding)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('does not open, and is not malformed, for what an older Parley signed (no key id) or a listed key signed that is not a payload', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    const signature = await keys.primary.hmac.sign('x');
    // What Parley 0.1 issued: a payload and its HMAC, with no key id between them. Nothing in it is read.
    const older = `${JSON.stringify({ v: 1, ...binding, exp: Date.now() + 60_000, answers: {} })}.${signature}`;
    expect(await openState(keys, older, binding)).toEqual({ ok: false, reason: 'issued by another version of Parley' });
    for (const json of ['[1,2]', 'null', '{"v":2,"answers":{}}', 'not json']) {
      const body = `${json}.${keys.primary.id}`;
      expect(await openState(keys, `${body}.${await keys.primary.hmac.sign(body)}`, binding)).toEqual({
        ok: false,
        reason: 'issued by another version of Parley',
      });
    }
  });
});

describe('a server with either form', () => {
  it('opens both forms, so switching `elicitation.requestState` strands no round', async () => {
    const keys = await createStateKeys(['state-test-secret']);
    for (const form of ['sealed', 'signed'] as const)
      expect(await openState(keys, await sealState(keys, form, binding, { answers }, 60_000), binding)).toEqual({ ok: true, answers });
  });

  it('derives key ids that name the secret without revealing it, and differ between secrets', async () => {
    const ids = await Promise.all(['a', 'b', 'state-test-secret'].map((s) => keyIdOf(s)));
    expect(new Set(ids).size).toBe(3);
    expect(await keyIdOf('a')).toBe(ids[0]);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    const keys = await createStateKeys(['state-test-secret']);
    expect(keys.primary.id).toBe(ids[2]);
    expect(keys.primary.id).not.toContain(Buffer.from('state-test-secret').toString('base64url').slice(0, 8));
  });
});
