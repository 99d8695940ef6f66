// Rotating MCP_SESSION_SECRET across two processes on a real Redis: records name their key id, and each process opens
// what the other sealed while both list both secrets, whichever comes first.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/crypto';
import { QuestionKeys } from '../../src/stores';
import { startInstance, type Instance } from '../helpers/instances';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';

const send = (r: Request) => fetch(r);
const CONFIRM = { action: 'accept', content: { confirm: true } };
const OLD = 'rotation-old-session-secret';
const NEW = 'rotation-new-session-secret';

describe('MCP_SESSION_SECRET rotation across two processes sharing a real Redis', () => {
  let redis: RunningRedis;
  let raw: Redis;
  let rotated: Instance; // [new, old]: seals with new
  let rolling: Instance; // [old, new]: still seals with old, already opens new
  let retired: Instance; // [new]: the old secret gone
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
    const store = `redis:${redis.url}`;
    [rotated, rolling, retired] = await Promise.all([
      startInstance({ PARLEY_TEST_STORE: store, MCP_SESSION_SECRET: `${NEW},${OLD}` }),
      startInstance({ PARLEY_TEST_STORE: store, MCP_SESSION_SECRET: `${OLD}, ${NEW}` }),
      startInstance({ PARLEY_TEST_STORE: store, MCP_SESSION_SECRET: NEW, PARLEY_TEST_TTL_MS: '1500' }),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([rotated, rolling, retired].map((i) => i?.stop()));
    raw?.disconnect();
    await redis?.stop();
  });

  /** Opens a session on `a`, calls the tool there, checks the records in Redis, and sends the answer to `b`. */
  async function askOnAAnswerOnB(a: Instance, b: Instance, sealedWith: string, tool = 'close_ticket') {
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    const events = sseReader(await send(legacyPost(request('tools/call', { name: tool, arguments: { id: 'T-1' } }), session, {}, a.url)));
    const question = (await events.next())!;
    expect(question.data.method).toBe('elicitation/create');
    // Named and sealed under the asking instance's first secret: `v3.<key id>.…`.
    const pending = (await raw.get(await new QuestionKeys('mcp:', sealedWith).name('pending', session)))!;
    expect(pending.split('.')[1]).toBe(await keyIdOf(sealedWith));
    expect(pending).not.toContain('Close ticket');
    const answered = await send(legacyPost({ jsonrpc: '2.0', id: question.data.id, result: CONFIRM }, session, {}, b.url));
    return { status: answered.status, final: answered.status === 202 ? (await events.next())?.data : await answered.json() };
  }

  it('[new, old] asks and [old, new] passes the answer on, and the other way round', async () => {
    const done = { result: { structuredContent: { closed: true, id: 'T-1', note: '' } } };
    expect(await askOnAAnswerOnB(rotated, rolling, NEW)).toMatchObject({ status: 202, final: done });
    expect(await askOnAAnswerOnB(rolling, rotated, OLD)).toMatchObject({ status: 202, final: done });
  });

  it('[new] serves what [new, old] sealed, and cannot open what [old, new] sealed: the old key is no longer listed', async () => {
    expect(await askOnAAnswerOnB(rotated, retired, NEW)).toMatchObject({
      status: 202,
      final: { result: { structuredContent: { closed: true } } },
    });
    const stale = await askOnAAnswerOnB(rolling, retired, OLD);
    // The session record itself was sealed with the old secret: the retired instance does not know the session.
    expect(stale.status).toBe(404);
  });
});
