import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionKeys } from '../../src/stores';
import { startInstance, type Instance } from '../helpers/instances';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { read } from '../helpers/requests';

const send = (r: Request) => fetch(r);
const started: Instance[] = [];
afterAll(() => Promise.all(started.map((i) => i.stop())));

async function pair(a: Record<string, string>, b: Record<string, string> = a): Promise<[Instance, Instance]> {
  const both = await Promise.all([startInstance(a), startInstance(b)]);
  started.push(...both);
  return both;
}

const CONFIRM = { action: 'accept', content: { confirm: true } };

/** Opens a session on `a`, calls the tool there, and sends the answer to the question to `b`. */
async function askOnAAnswerOnB(
  a: Instance,
  b: Instance,
  tool: string,
  beforeAnswer?: (session: string) => Promise<void>,
  readOnRefusal = false,
) {
  const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
  const events = sseReader(await send(legacyPost(request('tools/call', { name: tool, arguments: { id: 'T-1' } }), session, {}, a.url)));
  const question = (await events.next())!;
  expect(question.data.method).toBe('elicitation/create');
  await beforeAnswer?.(session);
  const answered = await send(legacyPost({ jsonrpc: '2.0', id: question.data.id, result: CONFIRM }, session, {}, b.url));
  if (answered.status !== 202) {
    const body = await answered.json();
    if (readOnRefusal) return { status: answered.status, body, final: (await events.next())?.data };
    await events.cancel();
    return { status: answered.status, body };
  }
  return { status: 202, final: (await events.next())?.data };
}

describe('two instances sharing a real Redis', () => {
  let redis: RunningRedis;
  let raw: Redis;
  let plain: [Instance, Instance];
  let secret: [Instance, Instance];
  let mismatched: [Instance, Instance];
  let envOnly: [Instance, Instance];
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
    const store = `redis:${redis.url}`;
    [plain, secret, mismatched, envOnly] = await Promise.all([
      pair({ PARLEY_TEST_STORE: store }),
      pair({ PARLEY_TEST_STORE: `${store}/1`, MCP_SESSION_SECRET: 'one secret for every instance' }),
      pair(
        {
          PARLEY_TEST_STORE: `${store}/2`,
          MCP_SESSION_SECRET: 'shared',
          MCP_ELICITATION_SECRET: 'secret of instance a',
          PARLEY_TEST_TTL_MS: '1500',
        },
        {
          PARLEY_TEST_STORE: `${store}/2`,
          MCP_SESSION_SECRET: 'shared',
          MCP_ELICITATION_SECRET: 'secret of instance b',
          PARLEY_TEST_TTL_MS: '1500',
        },
      ),
      pair({ REDIS_URL: `${redis.url}/3` }),
    ]);
  }, 90_000);
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it('with no secret: the answer sent to the other instance reaches the waiting tool, and the store holds plain JSON', async () => {
    const outcome = await askOnAAnswerOnB(plain[0], plain[1], 'close_ticket', async (session) => {
      // Named by a SHA-256 without a secret: no session id in a key, plain JSON in the value.
      const name = await new QuestionKeys('mcp:', undefined).name('pending', session);
      expect(name).not.toContain(session);
      // The session's newest question: a one-question thread, its owner the session.
      const stored = JSON.parse((await raw.get(name))!);
      expect(stored).toMatchObject({ owner: session, status: 'waiting', asked: [stored.elicitId] });
      expect(stored.questions[0][1].message).toBe('Close ticket T-1? The customer will be notified.');
    });
    expect(outcome).toMatchObject({ status: 202, final: { result: { structuredContent: { closed: true, id: 'T-1', note: '' } } } });
  });

  it('with MCP_SESSION_SECRET on both: the tool completes, and Redis holds no plaintext question', async () => {
    const outcome = await askOnAAnswerOnB(secret[0], secret[1], 'close_ticket', async (session) => {
      const db = raw.duplicate({ db: 1 });
      try {
        const keys = await db.keys('mcp:*');
        const name = await new QuestionKeys('mcp:', 'one secret for every instance').name('pending', session);
        expect(keys).toEqual(expect.arrayContaining([name, `mcp:session:${session}`]));
        for (const key of keys) {
          const value = (await db.get(key))!;
          expect(value).not.toContain('Close ticket');
          expect(value).not.toContain('confirm');
          expect(value).not.toContain('elicitation');
        }
        // The question store's keys name no session; its values are sealed whole, the session id included.
        expect(keys.filter((key) => key.startsWith('mcp:pending:') && key.includes(session))).toEqual([]);
        const pending = (await db.get(name))!;
        expect(pending).toMatch(/^v3\.[A-Za-z0-9_-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
        expect(pending).not.toContain(session);
      } finally {
        db.disconnect();
      }
    });
    expect(outcome).toMatchObject({ status: 202, final: { result: { structuredContent: { closed: true, id: 'T-1', note: '' } } } });
  });

  it('with different MCP_ELICITATION_SECRETs: the other instance finds no question under its names (410), and the tool times out', async () => {
    const outcome = await askOnAAnswerOnB(mismatched[0], mismatched[1], 'confirm_quickly', undefined, true);
    expect(outcome.status).toBe(410);
    expect(outcome.body).toMatchObject({ error: { code: -31001, data: { reason: 'no-question' } } });
    expect(outcome.final.result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_TIMEOUT' } });
  });

  it('the fallback: a question asked on one instance is answered with sendElicitationResult on the other, by its session only', async () => {
    const [a, b] = secret;
    const session = await openLegacySession(send, {}, {}, a.url);
    const asked = (
      await read(await send(legacyPost(request('tools/call', { name: 'close_owned', arguments: { id: 'T-2' } }), session, {}, a.url)))
    ).body;
    const { elicitId } = asked.result._meta.elicitationPending;
    const answer = request('tools/call', { name: 'sendElicitationResult', arguments: { elicitId, ...CONFIRM } });
    const stranger = await openLegacySession(send, {}, {}, b.url);
    const stolen = (await read(await send(legacyPost(answer, stranger, {}, b.url)))).body;
    expect(stolen.error.code).toBe(-32003);
    const done = (await read(await send(legacyPost(answer, session, {}, b.url)))).body;
    expect(done.result.structuredContent).toEqual({ closed: true, by: 'anonymous' });
  });

  it('a session ended on one instance is gone on the other', async () => {
    const [a, b] = secret;
    const session = await openLegacySession(send, { elicitation: {} }, {}, a.url);
    expect((await send(legacyPost(request('ping'), session, {}, b.url))).status).toBe(200);
    expect((await fetch(b.url, { method: 'DELETE', headers: { 'mcp-session-id': session } })).status).toBe(204);
    expect((await send(legacyPost(request('ping'), session, {}, a.url))).status).toBe(404);
  });

  it('with only REDIS_URL (twelve-factor): sessions live in Redis too, so the answer sent to the other instance reaches the tool', async () => {
    const outcome = await askOnAAnswerOnB(envOnly[0], envOnly[1], 'close_ticket', async (session) => {
      const db = raw.duplicate({ db: 3 });
      try {
        expect(await db.exists(`mcp:session:${session}`)).toBe(1);
      } finally {
        db.disconnect();
      }
    });
    expect(outcome).toMatchObject({ status: 202, final: { result: { structuredContent: { closed: true, id: 'T-1', note: '' } } } });
  });
});

describe('two instances without a shared store', () => {
  it('without Redis: the other instance answers 404', async () => {
    const [a, b] = await pair({});
    const outcome = await askOnAAnswerOnB(a, b, 'close_ticket');
    expect(outcome).toMatchObject({ status: 404, body: { error: { message: 'Session not found' } } });
  }, 60_000);

  it('two processes on one SQLite file: the other refuses the answer (nobody there hears it), and the tool waits out its ttl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-sqlite-'));
    try {
      const [a, b] = await pair({ PARLEY_TEST_STORE: `sqlite:${join(dir, 'elicitation.db')}`, PARLEY_TEST_TTL_MS: '1500' });
      const outcome = await askOnAAnswerOnB(a, b, 'confirm_quickly', undefined, true);
      expect(outcome.status).toBe(410);
      expect(outcome.body).toMatchObject({ error: { code: -31001, data: { reason: 'no-listener' } } });
      expect(outcome.final.result).toMatchObject({ isError: true, _meta: { code: 'ELICITATION_TIMEOUT' } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
