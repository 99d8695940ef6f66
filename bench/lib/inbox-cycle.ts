// Row 15's driver, by hand (fetch): a persistent question filed by a tool and answered in the person's inbox. Each
// cycle: the call files it (QUESTION_PENDING once its short wait is over), the inbox lists it, the person answers it,
// and the next call of the same key gets the answer. Every body is checked; a cycle that went wrong is counted, never
// timed. The server is test/edge/entries/inbox-app.ts's: it takes the caller from `x-test-user` (a host that verified
// them), and its tool inbox_code makes the person's one-time sign-in code.
import { drive, type CyclesResult } from './task-round';
import { modernRequest, resultOf } from './wire';

const USER = 'bench-person';

async function call(origin: string, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const request = modernRequest('tools/call', { name, arguments: args });
  const response = await fetch(`${origin}/mcp`, {
    method: 'POST',
    headers: { ...request.headers, 'x-test-user': USER },
    body: request.body,
  });
  const body = await response.text();
  const result = resultOf(body);
  if (!result) throw new Error(`${response.status} ${body.slice(0, 300)}`);
  return result;
}

/** The person's inbox session cookie: a one-time code from inbox_code, signed in with. */
export async function signIn(origin: string): Promise<string> {
  const code = (await call(origin, 'inbox_code', {})).structuredContent?.code;
  const response = await fetch(`${origin}/_frontmcp/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (response.status !== 204 || !cookie) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return cookie;
}

async function cycle(origin: string, cookie: string, n: number): Promise<void> {
  const order = `B-${n}-${Math.random().toString(36).slice(2, 8)}`;
  const filed = await call(origin, 'approve_refund', { order, waitMs: 1 });
  if (filed._meta?.code !== 'QUESTION_PENDING') throw new Error(`filed: ${JSON.stringify(filed).slice(0, 300)}`);
  const listed = await fetch(`${origin}/_frontmcp/questions`, { headers: { cookie } });
  const { questions } = (await listed.json()) as { questions: { id: string; key: string }[] };
  const question = questions.find((q) => q.key === `refund-${order}`);
  if (!question) throw new Error(`the inbox does not list refund-${order}`);
  const answered = await fetch(`${origin}/_frontmcp/questions/${question.id}/answer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ action: 'accept', content: { approve: true } }),
  });
  if (answered.status !== 200) throw new Error(`answer: ${answered.status} ${await answered.text()}`);
  const next = await call(origin, 'approve_refund', { order, waitMs: 1 });
  if (next.structuredContent?.approved !== true) throw new Error(`next call: ${JSON.stringify(next).slice(0, 300)}`);
}

/** Persistent questions filed and answered on the server at `origin`, back to back, `clients` at once. */
export async function runInboxCycles(origin: string, options: { clients: number; seconds?: number }): Promise<CyclesResult> {
  const cookie = await signIn(origin);
  return drive((n) => cycle(origin, cookie, n), options);
}
