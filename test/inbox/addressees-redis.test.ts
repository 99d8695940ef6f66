// A 2-of-2 quorum across two instances of one server on one real redis-server: alice's call waits on instance A; bob
// decides on A and carol on B, at the same moment too; the waiting call gets both decisions, once, and a person's
// second decision on the other instance is refused.
import type { RunningServer } from 'parley-mcp/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestIdp } from '../helpers/oidc';
import { mcpRequest } from '../helpers/requests';
import { SHARED_REDIS, type SharedRedis } from '../helpers/shared-redis';
import { callerToken, type Person, signIn, startPeopleIdp, startServers, yes } from './addressees-helpers';

let idp: TestIdp;
let shared: SharedRedis;
let a: RunningServer;
let b: RunningServer;
const on = new Map<string, Person>();

beforeAll(async () => {
  const [, open] = SHARED_REDIS[0]; // over TCP
  shared = await open();
  idp = await startPeopleIdp();
  [a, b] = (await startServers(idp, {
    count: 2,
    name: `addressees-redis-${process.pid}`,
    storage: { type: 'redis', redis: shared.redis.url },
  })) as [RunningServer, RunningServer];
  on.set('bob@a', await signIn(new URL(a.url).origin, 'bob'));
  on.set('bob@b', await signIn(new URL(b.url).origin, 'bob'));
  on.set('carol@b', await signIn(new URL(b.url).origin, 'carol'));
});
afterAll(async () => {
  await a?.close({ graceMs: 0 });
  await b?.close({ graceMs: 0 });
  await idp?.close();
  await shared?.stop();
});

const call = async (order: string) => {
  const request = mcpRequest(
    'tools/call',
    { name: 'refund', arguments: { order, to: [{ group: 'finance' }], quorum: 2, waitMs: 20_000 } },
    { url: a.url, headers: { authorization: await callerToken(idp) } },
  );
  return fetch(request).then(async (r) => ((await r.json()) as any).result.structuredContent);
};

describe('a quorum across two instances on one Redis', () => {
  it('takes bob on A and carol on B; bob again on B is refused; the call on A gets both', async () => {
    const waiting = call('R1');
    const q = await on.get('carol@b')!.waitFor('Refund order R1?');
    expect(await on.get('bob@a')!.answer(q.id, yes)).toMatchObject({ status: 200, body: { status: 'decided', accepts: 1 } });
    expect(await on.get('bob@b')!.answer(q.id, yes)).toMatchObject({ status: 409, body: { error: 'already_decided' } });
    await on.get('carol@b')!.waitFor('Refund order R1?', (x) => x.decisions?.length === 1);
    expect((await on.get('carol@b')!.answer(q.id, yes)).status).toBe(200);
    const got = await waiting;
    expect(got.status).toBe('accept');
    expect(got.decisions.map((d: { by: string }) => d.by)).toEqual([`${idp.issuer}#bob`, `${idp.issuer}#carol`]);
  });

  it('counts two decisions made at the same moment on two instances, each once', async () => {
    const waiting = call('R2');
    const q = await on.get('carol@b')!.waitFor('Refund order R2?');
    const [bob, carol] = await Promise.all([on.get('bob@a')!.answer(q.id, yes), on.get('carol@b')!.answer(q.id, yes)]);
    expect([bob.status, carol.status]).toEqual([200, 200]);
    // Whoever appended second read both and answered; the first may have read both too (then both say answered).
    expect([bob.body.status, carol.body.status]).toContain('answered');
    const got = await waiting;
    expect(got.decisions.map((d: { by: string }) => d.by).sort()).toEqual([`${idp.issuer}#bob`, `${idp.issuer}#carol`]);
  });
});
