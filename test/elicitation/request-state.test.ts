// requestState: the payload's JSON and its signature, and the arguments it binds a round to.
import { describe, expect, it } from 'vitest';
import 'parley-mcp/node';
import { createHmacKey } from '../../src/crypto';
import { canonicalJson, digestArguments, openState, sealState } from '../../src/elicitation/request-state';

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

describe('a requestState', () => {
  const binding = { caller: 'anonymous', method: 'tools/call', name: 'close.ticket', digest: 'json:{"id":"T.1"}' };

  it('opens with the answers it was sealed with, dots and all, and says why when it does not', async () => {
    const key = await createHmacKey('state-test-secret');
    const answers = { 'elicitation-1': { action: 'accept', content: { note: 'v1.2. Done.' } } };
    const state = await sealState(key, binding, answers, 60_000);
    expect(await openState(key, state, binding)).toEqual({ ok: true, answers });
    expect(await openState(key, state, { ...binding, digest: 'json:{"id":"T.2"}' })).toEqual({ ok: false, reason: 'issued for other arguments' });
    expect(await openState(key, state, { ...binding, caller: 'iss#sam' })).toEqual({ ok: false, reason: 'issued to another caller' });
    expect(await openState(key, await sealState(key, binding, answers, -1), binding)).toEqual({ ok: false, reason: 'expired' });
    // One character of the payload changed, the signature kept: the signature no longer matches.
    expect(await openState(key, state.replace('v1.2', 'v1.3'), binding)).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('starts over, and is no protocol error, when this key signed something that is not a payload (another version)', async () => {
    const key = await createHmacKey('state-test-secret');
    // What Parley 0.1 issued: the payload as base64url, signed as it stands.
    const older = Buffer.from(JSON.stringify({ v: 1, ...binding, exp: Date.now() + 60_000, answers: {} })).toString('base64url');
    for (const body of [older, '[1,2]', 'null', '{"v":2,"answers":{}}'])
      expect(await openState(key, `${body}.${await key.sign(body)}`, binding)).toEqual({ ok: false, reason: 'issued by another version of Parley' });
    for (const malformed of ['no-signature', `{}.${'A'.repeat(42)}`, `{}.${'A'.repeat(42)}+`, `.${await key.sign('')}`])
      expect(await openState(key, malformed, binding)).toEqual({ ok: false, reason: 'malformed' });
  });
});
