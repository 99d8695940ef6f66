// Helpers for inbox tests: a persistent-question server in-process, MCP calls as a caller, and a signed-in person.
import { createFetchHandler, LoopbackTokenAuth, questionSubjectOf, type FrontMcpConfigInput } from 'parley-mcp';
import { config } from '../../examples/inbox/server';
import { mcpRequest, read } from '../helpers/requests';

export const ORIGIN = 'http://127.0.0.1';
let n = 0;

export function inboxServer(overrides: Partial<FrontMcpConfigInput> = {}) {
  const name = `inbox-test-${process.pid}-${++n}`;
  const logger = { debug() {}, info() {}, warn() {}, error() {} };
  const handler = createFetchHandler({ ...config, info: { name, version: '1.0.0' }, logger, ...overrides });
  const as = (sub: string) => ({ auth: { user: { sub, iss: 'https://idp.example' } } });
  const call = async (tool: string, args: Record<string, unknown>, sub = 'dana', extra: Record<string, unknown> = {}) =>
    (await read(await handler(mcpRequest('tools/call', { name: tool, arguments: args, ...extra }), as(sub)))).body;

  const request = (path: string, init: RequestInit & { cookie?: string } = {}) => {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set('cookie', init.cookie);
    return handler(new Request(`${ORIGIN}${path}`, { ...init, headers }));
  };
  const post = (path: string, body: unknown, init: RequestInit & { cookie?: string } = {}) =>
    request(path, {
      method: 'POST',
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      body: JSON.stringify(body),
    });

  /** Signs a person in for a caller's subject with a fresh one-time code; returns the cookie. */
  const signIn = async (sub = 'dana') => {
    await handler(new Request(`${ORIGIN}/_frontmcp/inbox`)); // builds the server, so its people auth is registered
    const subject = questionSubjectOf(as(sub).auth)!;
    const { code } = await LoopbackTokenAuth.createCode({ subject, server: name });
    const response = await post('/_frontmcp/sign-in', { code });
    if (response.status !== 204) throw new Error(`sign-in failed: ${response.status}`);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };

  const questions = async (cookie: string) => (await read(await request('/_frontmcp/questions', { cookie }))).body;
  const waitForQuestion = async (cookie: string, key: string) => {
    for (let i = 0; i < 300; i++) {
      const found = (await questions(cookie)).questions.find((q: { key: string; waiting: boolean }) => q.key === key && q.waiting);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no question ${key}`);
  };
  return { name, handler, call, request, post, signIn, questions, waitForQuestion };
}
