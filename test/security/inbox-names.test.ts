// The inbox routes under a hostile client: prototype names as question ids, sign-in codes and tokens, cookies,
// actions, body keys and subjects get the routes' own refusals (never a 5xx), and a question is answered afterwards.
import { describe, expect, it } from 'vitest';
import { read } from '../helpers/requests';
import { inboxServer } from '../inbox/inbox-helpers';
import { PROTOTYPE_NAMES } from './fixture';

const raw = (s: ReturnType<typeof inboxServer>, path: string, body: string, cookie?: string) =>
  s.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body, cookie });

describe.each(PROTOTYPE_NAMES)('the inbox routes, the name %s', (name) => {
  it('as a question id, path, code, token, cookie, action or body key gets the routes’ own refusal', async () => {
    const s = inboxServer();
    const cookie = await s.signIn();
    const expectProblem = async (response: Response, status: number, error: string) => {
      const { status: got, body } = await read(response);
      expect(got).toBe(status);
      expect(body.error).toBe(error);
    };
    await expectProblem(
      await s.post(`/_frontmcp/questions/${name}/answer`, { action: 'accept', content: {} }, { cookie }),
      404,
      'not_found',
    );
    await expectProblem(await s.request(`/_frontmcp/${name}`, { cookie }), 404, 'not_found');
    await expectProblem(await s.request(`/${name}`), 404, 'not_found');
    await expectProblem(await s.post('/_frontmcp/sign-in', { code: name }), 401, 'unauthorized');
    await expectProblem(await s.post('/_frontmcp/sign-in', { token: name }), 401, 'unauthorized');
    await expectProblem(await raw(s, '/_frontmcp/sign-in', `{${JSON.stringify(name)}:{"code":"x","token":"y"}}`), 401, 'unauthorized');
    await expectProblem(await s.request('/_frontmcp/questions', { cookie: `parley_inbox=${name}` }), 401, 'unauthorized');
    await expectProblem(await s.post(`/_frontmcp/questions/x/answer`, { action: name }, { cookie }), 400, 'invalid_action');
    await expectProblem(
      await raw(s, '/_frontmcp/questions/x/answer', `{${JSON.stringify(name)}:{"action":"accept"}}`, cookie),
      400,
      'invalid_action',
    );
  });

  it('as a caller’s subject is a subject like any other, and a body key never answers a required field', async () => {
    const s = inboxServer();
    const cookie = await s.signIn(name);
    const version = `v-${name}`;
    const call = s.call('approve_deploy', { version }, name);
    const q = await s.waitForQuestion(cookie, `deploy-${version}`);
    // Nothing but an own `approve` answers `approve`: not a key of the prototype's, nor one hidden under __proto__.
    const hidden = await raw(
      s,
      `/_frontmcp/questions/${q.id}/answer`,
      `{"action":"accept","content":{${JSON.stringify(name)}:{"approve":true}}}`,
      cookie,
    );
    expect((await read(hidden)).body).toMatchObject({ error: 'invalid_content', message: expect.stringContaining('approve: required') });
    const answer = await s.post(`/_frontmcp/questions/${q.id}/answer`, { action: 'accept', content: { approve: true } }, { cookie });
    expect((await read(answer)).body).toEqual({ status: 'answered', action: 'accept', delivered: 'waiting-call' });
    expect((await call).result.structuredContent).toEqual({ approved: true });
    // Another subject sees none of it.
    const other = await s.signIn('someone-else');
    expect((await s.questions(other)).questions).toEqual([]);
  });
});
