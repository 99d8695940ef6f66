// The inbox on two isolates of one Worker (test/edge/entries/inbox-worker.ts), whatever store they share: a person's
// calls, sign-in and answers as requests to isolate a or b. Used by the Durable Objects and the Upstash tests.
import { expect } from 'vitest';
import { mcpRequest, read } from '../helpers/requests';

export type Isolate = 'a' | 'b';
export type Send = (to: Isolate, path: string, init?: RequestInit) => Promise<Response>;

export function inboxClient(send: Send) {
  /** A tools/call as `user` (the host verified them), on isolate `to`: the JSON-RPC response. */
  const call = async (to: Isolate, user: string | undefined, name: string, args: Record<string, unknown> = {}) => {
    const request = mcpRequest('tools/call', { name, arguments: args });
    const headers = Object.fromEntries(request.headers);
    const response = await send(to, '/mcp', {
      method: 'POST',
      headers: user ? { ...headers, 'x-test-user': user } : headers,
      body: await request.text(),
    });
    return (await read(response)).body;
  };

  /** Signs `user` in on isolate `to` with a one-time code made on the other isolate; returns the cookie. */
  const signIn = async (to: Isolate, user: string) => {
    const made = await call(to === 'a' ? 'b' : 'a', user, 'inbox_code');
    const code = made.result.structuredContent.code as string;
    const response = await post(to, '/_frontmcp/sign-in', { code });
    expect(response.status).toBe(204);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };

  const post = (to: Isolate, path: string, body: unknown, cookie?: string) =>
    send(to, path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });

  const questions = async (to: Isolate, cookie?: string) =>
    read(await send(to, '/_frontmcp/questions', cookie ? { headers: { cookie } } : {}));

  /** The question of `key` once the inbox on `to` lists it (and, with `waiting`, a call waits for it). */
  const waitForQuestion = async (to: Isolate, cookie: string, key: string, waiting?: boolean) => {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { body } = await questions(to, cookie);
      const found = body.questions.find(
        (q: { key: string; waiting: boolean }) => q.key === key && (waiting === undefined || q.waiting === waiting),
      );
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no question ${key} on ${to}`);
  };

  return { call, signIn, post, questions, waitForQuestion };
}

/**
 * The whole path: a tool files a persistent question on a, nobody answers within the call, the person answers on b
 * through the inbox's JSON routes, and the next call of the key on a gets that answer; then a call that waits gets an
 * answer posted on b while it waits. And what another person, a made-up id or no session gets.
 */
export async function inboxAcrossIsolates(send: Send): Promise<void> {
  const s = inboxClient(send);
  const dana = await s.signIn('b', 'dana');

  const first = await s.call('a', 'dana', 'approve_refund', { order: 'R-1', waitMs: 200 });
  expect(first.result).toMatchObject({ isError: true, _meta: { code: 'QUESTION_PENDING' } });
  const q = await s.waitForQuestion('b', dana, 'refund-R-1');
  expect(q).toMatchObject({ message: 'Refund order R-1?', state: 'open', waiting: false });

  // Another person sees nothing of dana's, and can't answer it.
  const erin = await s.signIn('a', 'erin');
  expect((await s.questions('b', erin)).body.questions).toEqual([]);
  expect((await s.post('b', `/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, erin)).status).toBe(
    404,
  );
  // Names of Object.prototype's members are no questions; no session is 401.
  for (const id of ['__proto__', 'constructor', 'hasOwnProperty', 'toString'])
    expect((await s.post('b', `/_frontmcp/questions/${id}/answer`, { action: 'decline' }, dana)).status).toBe(404);
  expect((await s.questions('b')).status).toBe(401);
  // A session named like Object.prototype's members is no session.
  for (const id of ['__proto__', 'constructor']) expect((await s.questions('b', `${dana.split('=')[0]}=${id}`)).status).toBe(401);
  // The cron route takes no input and no other method.
  expect((await send('b', '/_frontmcp/deadlines', { method: 'POST' })).status).toBe(404);
  expect((await s.post('b', `/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } })).status).toBe(401);
  expect((await s.post('b', '/_frontmcp/sign-in', { code: '__proto__' })).status).toBe(401);

  const answered = await s.post(
    'b',
    `/_frontmcp/questions/${q.id}/answer`,
    { action: 'accept', content: { approve: true, note: 'from b' } },
    dana,
  );
  expect(await read(answered)).toEqual({ status: 200, body: { status: 'answered', action: 'accept', delivered: 'next-call' } });
  const next = await s.call('a', 'dana', 'approve_refund', { order: 'R-1', waitMs: 200 });
  expect(next.result.structuredContent).toEqual({ approved: true, note: 'from b' });
  expect((await s.questions('b', dana)).body.questions).toEqual([]);

  // A call that waits on a gets the answer posted on b while it waits.
  const waiting = s.call('a', 'dana', 'approve_refund', { order: 'R-2', waitMs: 20_000 });
  const q2 = await s.waitForQuestion('b', dana, 'refund-R-2', true);
  const second = await read(await s.post('b', `/_frontmcp/questions/${q2.id}/answer`, { action: 'decline' }, dana));
  expect(second.body).toEqual({ status: 'answered', action: 'decline', delivered: 'waiting-call' });
  expect((await waiting).result.structuredContent).toEqual({ approved: false });
}
