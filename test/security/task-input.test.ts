// The hostile client's matrix for tasks/*, on both eras: every prototype name as a task id, an inputResponses key, an
// extension name and a taskIds entry; ids of every other shape (non-strings, huge); answers nested past the limit and
// by the thousand. Each gets its documented answer (-32602, -32021, or an acknowledgement that answers nothing), never
// a 5xx or a hang, and the task aimed at is left as it was: it still finishes its round afterwards.
import { describe, expect, it, vi } from 'vitest';
import { createFetchHandler } from 'parley-mcp';
import { legacyPost, openLegacySession, request, sseReader } from '../helpers/legacy';
import { mcpRequest, meta, rawPost, read } from '../helpers/requests';
import { config, INTERNAL, PROTOTYPE_NAMES } from './fixture';

const handler = createFetchHandler(config);
const TASKS = 'io.modelcontextprotocol/tasks';
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });
const NOT_FOUND = { code: -32602, message: 'Task not found: no live task with this id for this caller' };
const UNKNOWN_ID = 'tsk_AAAAAAAAAAAAAAAAAAAAAAAA';
/** An object with one own key, as JSON.parse makes it (`__proto__` included). */
const own = (key: string, value: unknown): Record<string, unknown> => Object.fromEntries([[key, value]]);
const accept = { action: 'accept', content: { confirm: true } };

async function answerOf(response: Response): Promise<{ status: number; body: any }> {
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  for (const name of INTERNAL) expect(text).not.toContain(name);
  return read(new Response(text, { status: response.status, headers: response.headers }));
}

/** A 2026-07-28 tasks/* request, its Mcp-Name the id when the id is a string (as a client must send it). */
const task = async (method: string, taskId: unknown, extra: Record<string, unknown> = {}, _meta: unknown = declaring) =>
  answerOf(
    await handler(mcpRequest(method, { taskId, ...extra, _meta }, { headers: { 'mcp-name': typeof taskId === 'string' ? taskId : null } })),
  );

/** A parked_task waiting in input_required for its answer under `go`. */
async function parked(): Promise<string> {
  const { body } = await answerOf(await handler(mcpRequest('tools/call', { name: 'parked_task', arguments: {}, _meta: declaring })));
  expect(body.result).toMatchObject({ resultType: 'task' });
  const { taskId } = body.result;
  await vi.waitFor(async () => expect((await task('tasks/get', taskId)).body.result.status).toBe('input_required'));
  return taskId;
}

/** The task is as it was (waiting on `go`), and the right answer still ends it. */
async function stillParkedThenDone(taskId: string): Promise<void> {
  const now = (await task('tasks/get', taskId)).body.result;
  expect(now).toMatchObject({ status: 'input_required', inputRequests: { go: { method: 'elicitation/create' } } });
  expect(Object.keys(now.inputRequests)).toEqual(['go']);
  expect((await task('tasks/update', taskId, { inputResponses: { go: accept } })).body.result).toEqual(
    expect.objectContaining({ resultType: 'complete' }),
  );
  await vi.waitFor(async () =>
    expect((await task('tasks/get', taskId)).body.result).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'went on' }] },
    }),
  );
}

describe.each(PROTOTYPE_NAMES)('tasks/* on 2026-07-28, the name %s', (name) => {
  it('as a task id is -32602 on tasks/get, update and cancel, and is left out of a listen’s taskIds', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { status, body } = await task(method, name, { inputResponses: {} });
      expect({ status, error: body.error }).toEqual({ status: 400, error: NOT_FOUND });
    }
    const events = sseReader(await handler(mcpRequest('subscriptions/listen', { notifications: { taskIds: [name] }, _meta: declaring })));
    expect((await events.next())!.data.params.notifications).toEqual({ taskIds: [] });
    await events.cancel();
  });

  it('as an inputResponses key (or the key of an answer) answers nothing, and the task finishes its round', async () => {
    const taskId = await parked();
    const ack = await task('tasks/update', taskId, { inputResponses: { ...own(name, accept), other: own(name, accept) } });
    expect(ack.body.result).toMatchObject({ resultType: 'complete' });
    await stillParkedThenDone(taskId);
  });

  it('as an extension name declares nothing: tasks/* and a listen for taskIds are -32021', async () => {
    const undeclared = meta({ elicitation: {}, extensions: own(name, {}) });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { status, body } = await task(method, UNKNOWN_ID, { inputResponses: {} }, undeclared);
      expect({ status, code: body.error.code }).toEqual({ status: 400, code: -32021 });
    }
    const listen = await answerOf(await handler(mcpRequest('subscriptions/listen', { notifications: { taskIds: [] }, _meta: undeclared })));
    expect(listen.body.error.code).toBe(-32021);
  });
});

describe('tasks/* on 2026-07-28 with ids and answers of every other shape', () => {
  it.each([
    ['a number', 7],
    ['null', null],
    ['a boolean', true],
    ['an object', { taskId: UNKNOWN_ID }],
    ['an array', [UNKNOWN_ID]],
    ['an empty string', ''],
    ['a huge string', 'x'.repeat(50_000)],
    ['a task id one character long', `${UNKNOWN_ID}A`],
  ])('a task id that is %s is -32602 on tasks/get, update and cancel', async (_, taskId) => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const { status, body } = await task(method, taskId, { inputResponses: {} });
      expect({ status, code: body.error.code }).toEqual({ status: 400, code: -32602 });
    }
  });

  it('inputResponses that is not an object is -32602; an answer that is not one answers nothing; the task is intact', async () => {
    const taskId = await parked();
    for (const inputResponses of [null, [], 'go', 7, [accept]]) {
      const { status, body } = await task('tasks/update', taskId, { inputResponses });
      expect({ status, code: body.error.code }).toEqual({ status: 400, code: -32602 });
    }
    for (const answer of ['accept', 7, null, [accept], true]) {
      expect((await task('tasks/update', taskId, { inputResponses: { go: answer } })).body.result).toMatchObject({
        resultType: 'complete',
      });
    }
    await stillParkedThenDone(taskId);
  });

  it('an answer nested past the limit is -32602 where the body is read; ten thousand unknown keys are ignored', async () => {
    const taskId = await parked();
    const deep = `${'{"a":'.repeat(8_000)}1${'}'.repeat(8_000)}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tasks/update',
      params: { taskId, inputResponses: { go: '\u0000' }, _meta: declaring },
    });
    const headers = {
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tasks/update',
      'mcp-name': taskId,
    };
    const refused = await answerOf(await handler(rawPost(body.replace('"\\u0000"', deep), headers)));
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 400, code: -32602 });
    const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, accept]));
    expect((await task('tasks/update', taskId, { inputResponses: many })).body.result).toMatchObject({ resultType: 'complete' });
    await stillParkedThenDone(taskId);
  });
});

describe.each(PROTOTYPE_NAMES)('tasks/* on 2025-11-25 with a session, the name %s', (name) => {
  const legacy = async (session: string, method: string, params: Record<string, unknown>) =>
    answerOf(await handler(legacyPost(request(method, params), session)));

  it('as a task id is -32602 on tasks/get, tasks/cancel and tasks/result; the session’s own task is untouched', async () => {
    const session = await openLegacySession(handler);
    const created = await legacy(session, 'tools/call', { name: 'parked_task', arguments: {}, task: own(name, 1) });
    const { taskId } = created.body.result.task;
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
      const { body } = await legacy(session, method, { taskId: name });
      expect(body.error).toEqual(NOT_FOUND);
    }
    await vi.waitFor(async () =>
      expect((await legacy(session, 'tasks/get', { taskId })).body.result).toMatchObject({ taskId, status: 'input_required' }),
    );
    expect((await legacy(session, 'tasks/cancel', { taskId })).body.result).toMatchObject({ taskId, status: 'cancelled' });
  });
});

describe('tasks/* on 2025-11-25 with ids of every other shape', () => {
  it.each([7, null, true, {}, [UNKNOWN_ID], '', 'x'.repeat(50_000)])('a task id %j is -32602, never a hang', async (taskId) => {
    const session = await openLegacySession(handler);
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/result']) {
      const { body } = await answerOf(await handler(legacyPost(request(method, { taskId }), session)));
      expect(body.error.code).toBe(-32602);
    }
  });
});
