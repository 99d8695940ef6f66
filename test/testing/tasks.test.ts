// parley-mcp/testing driving a task step by step against the conformance fixture: its status, its open questions, one
// answer at a time, the next state; and mcp.tools.call following a task to its result.
import { describe } from 'vitest';
import { connectMcp, expect, test } from 'parley-mcp/testing';
import { config } from '../../examples/conformance/server';

const quietConfig = { ...config, logger: { debug() {}, info() {}, warn() {}, error() {} } };
// In a describe block: a file-level override would stay on the shared test object for the next files of a worker
// (the unit project does not isolate its files).
describe('the conformance fixture', () => {
  test.override({ mcpOptions: { server: quietConfig } });

  test('a task asking two questions, answered one at a time', async ({ mcp }) => {
    const task = await mcp.tasks.start('multi_input');
    expect(task.id).toMatch(/^tsk_/);
    await task.until('input_required');
    const keys = Object.keys(task.questions);
    expect(
      Object.values(task.questions)
        .map((q) => q.message)
        .sort(),
    ).toEqual(['Go ahead?', 'What is your name?']);
    const nameKey = keys.find((key) => task.questions[key]!.message === 'What is your name?')!;
    const goKey = keys.find((key) => key !== nameKey)!;

    await task.answer(nameKey, { action: 'accept', content: { name: 'Ada' } });
    await task.refresh();
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.questions)).toEqual([goKey]);
    await expect(task.answer(nameKey, { action: 'decline' })).rejects.toThrow(`has no open question "${nameKey}"`);

    await task.answer(goKey, { action: 'accept', content: { confirm: true } });
    await task.until('completed');
    expect(task.result.text()).toBe('name=Ada, confirm=true');
  });

  test('a task cancelled from the test', async ({ mcp }) => {
    const task = await mcp.tasks.start('slow_compute', { seconds: 60 });
    expect(task.status).toBe('working');
    await task.cancel();
    await task.until('cancelled');
    expect(() => task.result).toThrow(/is cancelled.*: only a completed task has a result/);
  });

  test('until() names the state a task ended in', async ({ mcp }) => {
    const task = await mcp.tasks.start('protocol_error_job');
    await expect(task.until('completed')).rejects.toThrow(
      /ended failed .*\(-32603 The job lost its connection to the warehouse\) while the test waited for completed/,
    );
  });

  test('tasks.start refuses a call that ran without a task', async ({ mcp }) => {
    await expect(mcp.tasks.start('slow_compute', { seconds: 0 })).rejects.toThrow(/slow_compute answered without a task/);
  });

  test('tools.call follows a task to its result, the questions answered by onElicitation', async ({ mcp }) => {
    mcp.onElicitation(() => ({ action: 'accept', content: { confirm: true } }));
    expect((await mcp.tools.call('confirm_delete', { filename: 'c.txt' })).text()).toBe('Deleted c.txt');
  });

  test('tasks: false declares no tasks, so a tool that must run as one is refused', async ({ mcp }) => {
    const without = await connectMcp(quietConfig, { tasks: false });
    try {
      await expect(without.tools.call('confirm_delete', { filename: 'c.txt' })).rejects.toMatchObject({ code: -32021 });
    } finally {
      await without.close();
    }
    expect((await mcp.tools.call('confirm_delete', { filename: 'c.txt' })).text()).toBe('Kept c.txt');
  });
});
