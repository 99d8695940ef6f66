import { describe, expect, it } from 'vitest';
import { InvalidQuestionStoreError, questionSubjectOf } from 'parley-mcp';
import { createQuestionService } from '../../src/app/questions';
import { parseConfig } from '../../src/model/config';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const build = (persistent: unknown, extra: Record<string, unknown> = {}) =>
  createQuestionService(
    parseConfig({ info: { name: 's', version: '1' }, elicitation: { enabled: true, persistent }, ...extra }),
    undefined,
    quiet,
  );

describe('elicitation.persistent at startup', () => {
  it('is off unless set', async () => {
    expect(await build(undefined)).toBeUndefined();
    expect(await build(false)).toBeUndefined();
  });

  it.each([
    ['a string', 'yes', /Invalid elicitation\.persistent: \(persistent\)/],
    ['a negative ttlMs', { ttlMs: -1 }, /ttlMs: /],
    ['an unknown storage', { storage: { type: 'postgres' } }, /storage/],
    ['an unknown inboxLinks', { inboxLinks: 'email' }, /inboxLinks/],
    ['an unknown option', { ttl: 5 }, /ttl/],
  ])('fails with InvalidQuestionStoreError for %s', async (_, persistent, message) => {
    const failure = build(persistent);
    await expect(failure).rejects.toBeInstanceOf(InvalidQuestionStoreError);
    await expect(failure).rejects.toThrow(message);
  });

  it('needs elicitation.enabled', async () => {
    const failure = createQuestionService(
      parseConfig({ info: { name: 's', version: '1' }, elicitation: { persistent: true } }),
      undefined,
      quiet,
    );
    await expect(failure).rejects.toThrow('Invalid elicitation.persistent: it needs elicitation.enabled: true');
  });

  it('fails on an edge runtime without a store that outlives the isolate, or with memory or SQLite, naming what to set', async () => {
    const g = globalThis as { EdgeRuntime?: string };
    g.EdgeRuntime = 'edge-runtime';
    try {
      const none = build(true);
      await expect(none).rejects.toBeInstanceOf(InvalidQuestionStoreError);
      await expect(none).rejects.toThrow(
        /there is none that outlives this isolate: bind the ParleyStore class as PARLEY_STORE .*enableRedisHttp\(\)/,
      );
      await expect(build({ storage: { type: 'memory' } })).rejects.toThrow(
        /storage \{ type: 'memory' \} ends with the isolate on an edge runtime/,
      );
      await expect(build({ storage: { type: 'sqlite' } })).rejects.toThrow(
        /storage \{ type: 'sqlite' \} needs a local file on an edge runtime/,
      );
      await expect(build({ storage: { type: 'redis', redis: 'redis://127.0.0.1:1' } })).rejects.toThrow(
        /storage\.redis: Redis over TCP \(ioredis\) needs a TCP connection/,
      );
    } finally {
      delete g.EdgeRuntime;
    }
  });
});

describe('questionSubjectOf', () => {
  it('names a principal per issuer, else the session, else nobody', () => {
    expect(questionSubjectOf({ user: { sub: 'u1', iss: 'https://idp.example' } })).toBe('principal:https://idp.example#u1');
    expect(questionSubjectOf({ user: { sub: 'u1' } })).toBe('principal:u1');
    expect(questionSubjectOf({ user: { sub: 'anonymous' }, anonymous: true, sessionId: 's-1' })).toBe('session:s-1');
    expect(questionSubjectOf({ user: { sub: 'anonymous' }, anonymous: true })).toBeUndefined();
    expect(questionSubjectOf(undefined)).toBeUndefined();
  });
});
