// A task on each era's wire, built from snapshots against the digest's examples (tasks.md A.4, A.6, A.7, B).
import { describe, expect, it } from 'vitest';
import type { TaskSnapshot } from '../../src/engine/tasks/task-record';
import {
  createTaskResult,
  detailedTask,
  legacyCreateTaskResult,
  legacyStatus,
  legacyTask,
  legacyTaskOutcome,
  relatedTaskMeta,
  taskAck,
  taskGetResult,
} from '../../src/engine/tasks/task-wire';

const at = (iso: string) => Date.parse(iso);
const working: TaskSnapshot = {
  taskId: 'tsk_9Qm2vJ7c4T1xW8bZ0rYkHn3e',
  status: 'working',
  statusMessage: 'Queued export for 2025',
  createdAt: at('2026-09-14T08:02:11.402Z'),
  lastUpdatedAt: at('2026-09-14T08:02:11.402Z'),
  ttlMs: 3_600_000,
  pollIntervalMs: 2000,
};
const refund = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Refund 240.00 EUR to order 88123?',
    requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' }, note: { type: 'string' } }, required: ['approve'] },
  },
};
/** Keys every task object of 2026-07-28 must not carry, whatever its status (conformance). */
const NEVER = ['requestState', 'task', 'ttl', 'pollInterval'];

describe('2026-07-28 task objects', () => {
  it('creates flat: resultType task, the Task fields, nothing inlined', () => {
    const created = createTaskResult({ ...working, inputRequests: [['q', refund]], result: { content: [] } });
    expect(created).toEqual({
      resultType: 'task',
      taskId: 'tsk_9Qm2vJ7c4T1xW8bZ0rYkHn3e',
      status: 'working',
      statusMessage: 'Queued export for 2025',
      createdAt: '2026-09-14T08:02:11.402Z',
      lastUpdatedAt: '2026-09-14T08:02:11.402Z',
      ttlMs: 3600000,
      pollIntervalMs: 2000,
    });
    for (const key of [...NEVER, 'result', 'error', 'inputRequests']) expect(Object.hasOwn(created, key)).toBe(false);
  });

  it('inlines every open question as a map for input_required, with a key named __proto__ as an own key', () => {
    const waiting: TaskSnapshot = {
      ...working,
      taskId: 'tsk_4bN8yQ2wK6tR0pZ3mC9vL1sX',
      status: 'input_required',
      statusMessage: 'Waiting for approval of the refund',
      inputRequests: [
        ['q-7f3a', refund],
        ['__proto__', refund],
      ],
    };
    const got = taskGetResult(waiting);
    expect(got.resultType).toBe('complete');
    const requests = got.inputRequests as Record<string, unknown>;
    expect(Object.keys(requests)).toEqual(['q-7f3a', '__proto__']);
    expect(requests['q-7f3a']).toEqual(refund);
    expect(Object.getPrototypeOf(requests)).toBe(Object.prototype);
    for (const key of [...NEVER, 'result', 'error']) expect(Object.hasOwn(got, key)).toBe(false);
  });

  it('inlines the result of a completed task with resultType complete and no related-task meta, even for isError', () => {
    const done: TaskSnapshot = {
      ...working,
      status: 'completed',
      lastUpdatedAt: at('2026-09-14T08:04:40.018Z'),
      result: { content: [{ type: 'text', text: 'ledger-2025.csv: 18 204 rows' }], isError: false },
    };
    expect(taskGetResult(done)).toEqual({
      resultType: 'complete',
      taskId: 'tsk_9Qm2vJ7c4T1xW8bZ0rYkHn3e',
      status: 'completed',
      statusMessage: 'Queued export for 2025',
      createdAt: '2026-09-14T08:02:11.402Z',
      lastUpdatedAt: '2026-09-14T08:04:40.018Z',
      ttlMs: 3600000,
      pollIntervalMs: 2000,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'ledger-2025.csv: 18 204 rows' }], isError: false },
    });
    const toolError = detailedTask({ ...done, result: { content: [{ type: 'text', text: 'no' }], isError: true } });
    expect(toolError.status).toBe('completed');
    expect(JSON.stringify(toolError)).not.toContain('related-task');
  });

  it('inlines the error of a failed task and no result; a cancelled task carries neither', () => {
    const failed: TaskSnapshot = {
      ...working,
      status: 'failed',
      statusMessage: 'Upstream warehouse refused the query',
      error: { code: -32603, message: 'warehouse connection reset' },
    };
    const got = taskGetResult(failed);
    expect(got.error).toEqual({ code: -32603, message: 'warehouse connection reset' });
    expect(Object.hasOwn(got, 'result')).toBe(false);
    const cancelled = taskGetResult({ ...working, status: 'cancelled' });
    for (const key of [...NEVER, 'result', 'error', 'inputRequests']) expect(Object.hasOwn(cancelled, key)).toBe(false);
  });

  it('acks tasks/update and tasks/cancel with an empty complete result, a fresh object each time', () => {
    expect(taskAck()).toEqual({ resultType: 'complete' });
    expect(taskAck()).not.toBe(taskAck());
  });
});

describe('2025-11-25 task objects', () => {
  it('nests the create result under task, with ttl and pollInterval, and no resultType', () => {
    expect(legacyCreateTaskResult({ ...working, statusMessage: undefined })).toEqual({
      task: {
        taskId: 'tsk_9Qm2vJ7c4T1xW8bZ0rYkHn3e',
        status: 'working',
        createdAt: '2026-09-14T08:02:11.402Z',
        lastUpdatedAt: '2026-09-14T08:02:11.402Z',
        ttl: 3600000,
        pollInterval: 2000,
      },
    });
  });

  it('shows a tool result with isError as failed, and inlines nothing in the Task', () => {
    const toolError: TaskSnapshot = { ...working, status: 'completed', result: { content: [], isError: true } };
    expect(legacyStatus(toolError)).toBe('failed');
    expect(legacyTask(toolError)).not.toHaveProperty('result');
    expect(legacyStatus({ ...toolError, result: { content: [] } })).toBe('completed');
    expect(legacyTask({ ...working, status: 'input_required', inputRequests: [['q', refund]] })).not.toHaveProperty('inputRequests');
  });

  it('answers tasks/result with the result tagged with its task, or the error; nothing while it runs', () => {
    const done: TaskSnapshot = { ...working, status: 'completed', result: { resultType: 'complete', content: [], _meta: { mine: 1 } } };
    expect(legacyTaskOutcome(done)).toEqual({
      result: { content: [], _meta: { mine: 1, 'io.modelcontextprotocol/related-task': { taskId: working.taskId } } },
    });
    expect(legacyTaskOutcome({ ...working, status: 'failed', error: { code: -32603, message: 'x' } })).toEqual({
      error: { code: -32603, message: 'x' },
    });
    expect(legacyTaskOutcome(working)).toBeUndefined();
    expect(relatedTaskMeta('tsk_1')).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: 'tsk_1' } });
  });
});
