// The running calls' table: calls answered in any order leave it, and at the end of grace exactly the calls left are
// ended, each once; a call that answers twice (its result after its end) leaves once.
import { describe, expect, it } from 'vitest';
import { RunningCalls, type RunningCall } from '../../src/engine/running-calls';

const callNamed = (name: string, ended: string[]): RunningCall => ({
  end: () => ended.push(name),
  running: false,
  previousRunning: undefined,
  nextRunning: undefined,
});

describe('RunningCalls', () => {
  it('ends exactly the calls still running, once each, whichever order the others left in', async () => {
    const table = new RunningCalls();
    const ended: string[] = [];
    const calls = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => callNamed(name, ended));
    for (const call of calls) table.add(call);
    // The newest, one in the middle, the oldest, and one twice.
    for (const i of [5, 2, 0, 2]) table.delete(calls[i]!);
    await table.end(0, () => new Error('shutting down'));
    expect(ended.sort()).toEqual(['b', 'd', 'e']);
    // Their answers come after their end: nothing left to end, nothing ended again.
    for (const call of calls) table.delete(call);
    await table.end(0, () => new Error('again'));
    expect(ended).toHaveLength(3);
  });

  it('stops waiting as soon as the last call answers, before the grace is over', async () => {
    const table = new RunningCalls();
    const ended: string[] = [];
    const [one, two] = [callNamed('one', ended), callNamed('two', ended)];
    table.add(one);
    table.add(two);
    const done = table.end(60_000, () => new Error('shutting down'));
    table.delete(one);
    table.delete(two);
    await done; // a minute's grace, over at once
    expect(ended).toEqual([]);
  });
});
