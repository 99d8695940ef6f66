// parley-mcp/node seals tasks' values and names their keys with node:crypto: its digests must be WebCrypto's, a value
// sealed by either must open on the other (instances on Node and on a Worker share one store), and it must refuse
// what WebCrypto refuses.
import { describe, expect, it } from 'vitest';
import { NODE_STORE_CRYPTO } from '../../src/adapters/node-store-crypto';
import { WEB_STORE_CRYPTO } from '../../src/crypto';
import { TaskStore } from '../../src/engine/tasks/task-store';
import { MemoryStore } from '../../src/stores';

const SECRETS = 'the newest secret, an older one';
const PURPOSE = 'parley task store v1';
const VALUES: unknown[] = [{}, { a: 1, b: [true, null, 'é東🎉'] }, 'x'.repeat(70_000), 0, null, [['q1', { method: 'elicitation/create' }]]];

describe('the store crypto parley-mcp/node passes, beside WebCrypto', () => {
  it('gives the same SHA-256 digests', async () => {
    for (const text of ['', 'task\u0000abc', 'é東🎉'.repeat(100), '\ud800 lone surrogate', JSON.stringify(['owner', null])])
      expect(await NODE_STORE_CRYPTO.digest(text)).toBe(await WEB_STORE_CRYPTO.digest(text));
  });

  it('opens what WebCrypto sealed and seals what WebCrypto opens, under the key id of the first secret', async () => {
    for (const value of VALUES) {
      const [fromNode, fromWeb] = [
        await NODE_STORE_CRYPTO.seal(SECRETS, 'owner-key', value, PURPOSE),
        await WEB_STORE_CRYPTO.seal(SECRETS, 'owner-key', value, PURPOSE),
      ];
      expect(fromNode.kid).toBe(fromWeb.kid);
      expect(await WEB_STORE_CRYPTO.open(SECRETS, 'owner-key', fromNode, PURPOSE)).toEqual(value);
      expect(await NODE_STORE_CRYPTO.open(SECRETS, 'owner-key', fromWeb, PURPOSE)).toEqual(value);
      // An older secret still listed opens it; a record sealed before key ids (no kid) is tried under each one.
      const older = await WEB_STORE_CRYPTO.seal('an older one', 'owner-key', value, PURPOSE);
      expect(await NODE_STORE_CRYPTO.open(SECRETS, 'owner-key', older, PURPOSE)).toEqual(value);
      const { kid: _, ...unnamed } = older;
      expect(await NODE_STORE_CRYPTO.open(SECRETS, 'owner-key', unnamed, PURPOSE)).toEqual(value);
    }
  });

  it('opens nothing under another owner, purpose or secret, changed, or not a sealed record at all', async () => {
    const sealed = await NODE_STORE_CRYPTO.seal(SECRETS, 'owner-key', { answer: 42 }, PURPOSE);
    const flip = (text: string) => `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
    const refused: [string, string, unknown, string][] = [
      ['an older one', 'owner-key', sealed, PURPOSE],
      [SECRETS, 'another-key', sealed, PURPOSE],
      [SECRETS, 'owner-key', sealed, 'parley elicitation store v1'],
      [SECRETS, 'owner-key', { ...sealed, data: flip(sealed.data) }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, tag: flip(sealed.tag) }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, iv: flip(sealed.iv) }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, tag: sealed.tag.slice(0, 16) }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, iv: '' }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, data: '!!not base64!!' }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, kid: 'AAAAAAAA' }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, kid: 7 }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, alg: 'A128GCM' }, PURPOSE],
      [SECRETS, 'owner-key', { ...sealed, data: 5 }, PURPOSE],
      [SECRETS, 'owner-key', null, PURPOSE],
      [SECRETS, 'owner-key', 'sealed', PURPOSE],
    ];
    for (const args of refused) {
      expect(await NODE_STORE_CRYPTO.open(...args)).toBeUndefined();
      expect(await WEB_STORE_CRYPTO.open(...args)).toBeUndefined();
    }
    expect(() => NODE_STORE_CRYPTO.seal(' , ', 'owner-key', 1, PURPOSE)).toThrow('names no secret');
  });

  it('serves one task to an instance on each: created on Node, answered on WebCrypto, its end read back on Node', async () => {
    const backend = new MemoryStore();
    const home = { backend, keyPrefix: 'x:', secret: SECRETS };
    const [node, web] = [new TaskStore(home, undefined, NODE_STORE_CRYPTO), new TaskStore(home, undefined, WEB_STORE_CRYPTO)];
    const question = { method: 'elicitation/create', params: { mode: 'form', message: 'Go?', requestedSchema: { type: 'object' } } };
    const task = await node.create({ owner: 'alice', tool: 'export' });
    expect(await node.park(task.taskId, [['go', question]])).toBe(true);
    expect((await web.snapshot(task.taskId, 'alice'))?.inputRequests).toEqual([['go', question]]);
    expect(await web.answer(task.taskId, 'alice', { go: { action: 'accept', content: { go: true } } })).toEqual(['go']);
    expect(await node.answers(task.taskId)).toEqual(new Map([['go', { action: 'accept', content: { go: true } }]]));
    expect(await web.finish(task.taskId, { status: 'completed', result: { content: [] } })).toBe(true);
    expect(await node.snapshot(task.taskId, 'alice')).toMatchObject({ status: 'completed', result: { content: [] } });
    expect((await web.list('alice')).map((t) => t.taskId)).toEqual([task.taskId]);
    expect((await node.list('alice')).map((t) => t.status)).toEqual(['completed']);
  });
});
