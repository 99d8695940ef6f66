// A task's question in its owner's inbox, on two instances sharing a real redis-server: the JSON view shows it to its
// owner only, the inbox's answer reaches the task, and the inbox racing tasks/update lets exactly one answer count.
// The work parks at its question as any task's does: the answer, wherever given, continues it by replay, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, createFetchHandler, LoopbackTokenAuth, Tool, ToolContext, z, type FrontMcpConfigInput, type InboxNotice } from 'parley-mcp';
import { config as inboxConfig } from '../../examples/inbox/server';
import { startRedis, type RunningRedis } from '../helpers/redis';
import { mcpRequest, meta, read } from '../helpers/requests';

const ISSUER = 'https://idp.example';
const TASKS = 'io.modelcontextprotocol/tasks';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });

/** What persistent.notify was told: a task's question that lands in the inbox nudges its person. */
const notices: { message: string; from?: unknown; principal?: string }[] = [];

/** How many times each item's work went on past its question: a task completes once. */
const signedOff = new Map<string, number>();
/** How many times each item's execute() ran from the top: to its question, then once more, replayed by one answer. */
const runs = new Map<string, number>();

@Tool({ name: 'sign_off', inputSchema: { item: z.string() }, execution: { taskSupport: 'required' } })
class SignOff extends ToolContext {
  async execute({ item }: { item: string }) {
    runs.set(item, (runs.get(item) ?? 0) + 1);
    await this.startTask();
    const answer = await this.elicit(`Sign off ${item}?`, z.object({ approve: z.boolean(), by: z.string() }));
    signedOff.set(item, (signedOff.get(item) ?? 0) + 1);
    return `${item}: ${answer.status} by ${String(answer.content?.by)}`;
  }
}

@App({ id: 'sign-off', tools: [SignOff] })
class SignOffApp {}

type Handler = ReturnType<typeof createFetchHandler>;
let redis: RunningRedis;
let a: Handler;
let b: Handler;
const NAME = `task-inbox-${process.pid}`;

beforeAll(async () => {
  redis = await startRedis();
  const config: FrontMcpConfigInput = {
    ...inboxConfig,
    info: { name: NAME, version: '1.0.0' },
    apps: [SignOffApp],
    redis: { url: redis.url },
    // Both kept in the server's Redis.
    elicitation: { enabled: true, persistent: { notify: (notice: InboxNotice) => void notices.push(notice) } },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  };
  a = createFetchHandler(config);
  b = createFetchHandler(config);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});

const as = (sub: string) => ({ auth: { user: { sub, iss: ISSUER } } });

async function rpc(on: Handler, sub: string, method: string, params: Record<string, unknown>) {
  const taskId = params.taskId as string | undefined;
  const request = mcpRequest(method, { _meta: declaring, ...params }, { headers: taskId ? { 'mcp-name': taskId } : {} });
  return (await read(await on(request, as(sub)))).body;
}

/** Starts a sign-off task as `sub` on instance A, and waits until it asks. */
async function startTask(item: string, sub = 'dana'): Promise<string> {
  const created = await rpc(a, sub, 'tools/call', { name: 'sign_off', arguments: { item } });
  expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
  const { taskId } = created.result;
  await until(async () => (await rpc(b, sub, 'tasks/get', { taskId })).result.status === 'input_required');
  return taskId;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('timed out');
}

/** A signed-in person's cookie for a caller's inbox, on instance B. */
async function signIn(sub: string): Promise<string> {
  await b(new Request('http://127.0.0.1/_frontmcp/inbox')); // builds the server, so its people auth is registered
  const { code } = await LoopbackTokenAuth.createCode({ subject: `principal:${ISSUER}#${sub}`, server: NAME });
  const response = await b(
    new Request('http://127.0.0.1/_frontmcp/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    }),
  );
  expect(response.status).toBe(204);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

const inbox = async (cookie: string) =>
  (await read(await b(new Request('http://127.0.0.1/_frontmcp/questions', { headers: { cookie } })))).body.questions as any[];

const answerInInbox = async (cookie: string, id: string, content: Record<string, unknown>) =>
  read(
    await b(
      new Request(`http://127.0.0.1/_frontmcp/questions/${id}/answer`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'accept', content }),
      }),
    ),
  );

/** The task's question in the inbox, once filed. */
async function inboxQuestion(cookie: string, item: string): Promise<any> {
  let found: any;
  await until(async () => (found = (await inbox(cookie)).find((q) => q.message === `Sign off ${item}?`)) !== undefined);
  return found;
}

async function finalResult(taskId: string, sub = 'dana'): Promise<string> {
  let task: any;
  await until(async () => (task = (await rpc(b, sub, 'tasks/get', { taskId })).result).status === 'completed');
  return task.result.content[0].text;
}

describe("a task's question in the inbox", () => {
  it('shows in its owner’s JSON view only, and the inbox answer, given on another instance, completes the task', async () => {
    const taskId = await startTask('ledger');
    const [dana, erin] = await Promise.all([signIn('dana'), signIn('erin')]);
    const question = await inboxQuestion(dana, 'ledger');
    expect(question).toMatchObject({
      state: 'open',
      from: { tool: 'sign_off', reason: 'task' },
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' }, by: { type: 'string' } } },
    });
    expect(question).not.toHaveProperty('task'); // the link to the task is the server's own
    // Nor is the task's id shown (an anonymous task's id is its bearer handle): the key is the one the task asked.
    expect(question.key).toBe('elicitation-1');
    expect(JSON.stringify(question)).not.toContain(taskId);
    expect(notices).toContainEqual(
      expect.objectContaining({
        message: 'Sign off ledger?',
        principal: `principal:${ISSUER}#dana`,
        from: { tool: 'sign_off', reason: 'task' },
      }),
    );
    // Another principal: an empty inbox, 404 for the question, and the task is unknown.
    expect(await inbox(erin)).toEqual([]);
    expect((await answerInInbox(erin, question.id, { approve: true, by: 'erin' })).status).toBe(404);
    expect((await rpc(b, 'erin', 'tasks/get', { taskId })).error.code).toBe(-32602);

    const answered = await answerInInbox(dana, question.id, { approve: true, by: 'dana in the inbox' });
    expect(answered).toEqual({ status: 200, body: { status: 'answered', action: 'accept', delivered: 'task' } });
    expect(await finalResult(taskId)).toBe('ledger: accept by dana in the inbox');
    // The later answers lose: the inbox's is 409, tasks/update's key is ignored (the task's result stays).
    expect((await answerInInbox(dana, question.id, { approve: false, by: 'late' })).body).toMatchObject({ error: 'already_answered' });
    const late = { 'elicitation-1': { action: 'accept', content: { approve: false, by: 'late client' } } };
    expect((await rpc(a, 'dana', 'tasks/update', { taskId, inputResponses: late })).result).toMatchObject({ resultType: 'complete' });
    expect(await finalResult(taskId)).toBe('ledger: accept by dana in the inbox');
    expect(await inbox(dana)).toEqual([]);
    expect(signedOff.get('ledger')).toBe(1);
    expect(runs.get('ledger')).toBe(2); // parked at the question, replayed on B by the inbox's answer
  });

  it('leaves the inbox when tasks/update answers first, and a late inbox answer is told it was answered', async () => {
    const taskId = await startTask('budget');
    const dana = await signIn('dana');
    const question = await inboxQuestion(dana, 'budget');
    const answer = { 'elicitation-1': { action: 'accept', content: { approve: true, by: 'the client' } } };
    await rpc(b, 'dana', 'tasks/update', { taskId, inputResponses: answer });
    expect((await answerInInbox(dana, question.id, { approve: false, by: 'inbox' })).status).toBe(409);
    expect(await finalResult(taskId)).toBe('budget: accept by the client');
    await until(async () => (await inbox(dana)).length === 0); // the work withdrew it once it took the answer
    // The decision log: filed by the task's call, seen in the JSON view, withdrawn as the task took the client's answer.
    const history = async () =>
      (await read(await b(new Request(`http://127.0.0.1/_frontmcp/questions/${question.id}/log`, { headers: { cookie: dana } })))).body
        .entries as { event: string; by: string; channel: string }[];
    await until(async () => (await history()).some((e) => e.event === 'withdrawn'));
    const lines = (await history()).map((e) => [e.event, e.by, e.channel]);
    expect(lines[0]).toEqual(['asked', `${ISSUER}#dana`, 'call']);
    expect(lines.at(-1)).toEqual(['withdrawn', 'parley', 'tasks/update']);
    // Between them, in whichever order they came: the nudge (notify is set here) and the JSON view.
    expect(lines.slice(1, -1).sort()).toEqual([
      ['nudged', 'parley', 'notify'],
      ['viewed', `${ISSUER}#dana`, 'json'],
    ]);
  });

  it('leaves the inbox when the task is cancelled on the other instance, and an answer after that is refused', async () => {
    const taskId = await startTask('cancelled');
    const dana = await signIn('dana');
    const question = await inboxQuestion(dana, 'cancelled');
    await rpc(b, 'dana', 'tasks/cancel', { taskId }); // the work runs on A, which hears the cancel and withdraws it
    await until(async () => (await inbox(dana)).length === 0);
    expect((await answerInInbox(dana, question.id, { approve: true, by: 'too late' })).status).toBe(409);
    expect((await rpc(b, 'dana', 'tasks/get', { taskId })).result.status).toBe('cancelled');
    expect(signedOff.get('cancelled')).toBeUndefined();
  });

  it('lets exactly one of the inbox and tasks/update answer when they race, and the task completes once with it', async () => {
    const dana = await signIn('dana');
    const wins = { inbox: 0, client: 0 };
    for (let i = 0; i < 16; i++) {
      const item = `race-${i}`;
      const taskId = await startTask(item);
      const question = await inboxQuestion(dana, item);
      const fromInbox = () => answerInInbox(dana, question.id, { approve: true, by: 'inbox' });
      const update = { 'elicitation-1': { action: 'accept', content: { approve: true, by: 'client' } } };
      const fromClient = () => rpc(i % 2 ? a : b, 'dana', 'tasks/update', { taskId, inputResponses: update });
      // Rounds 0 and 1 of every 4 answer one after the other (so each way of losing is taken for sure); the rest race
      // at once, tasks/update on either instance, each starting first in turn.
      const [inboxAnswer] =
        i % 4 === 0
          ? [await fromInbox(), await fromClient()]
          : i % 4 === 1
            ? await fromClient().then(async (c) => [await fromInbox(), c])
            : i % 2
              ? await Promise.all([fromInbox(), fromClient()])
              : await Promise.all([fromClient(), fromInbox()]).then(([c, n]) => [n, c]);
      const winner = inboxAnswer.status === 200 ? 'inbox' : 'client';
      if (winner === 'client') expect(inboxAnswer.body).toMatchObject({ error: 'already_answered' });
      wins[winner]++;
      expect(await finalResult(taskId)).toBe(`${item}: accept by ${winner}`);
      expect(signedOff.get(item)).toBe(1);
      // The winner's instance replayed the parked work; the loser's answer claimed nothing.
      expect(runs.get(item)).toBe(2);
    }
    expect(wins.inbox).toBeGreaterThanOrEqual(4);
    expect(wins.client).toBeGreaterThanOrEqual(4);
    await until(async () => (await inbox(dana)).length === 0);
  });
});
