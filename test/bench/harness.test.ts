// A smoke of the benchmark harness against Parley in its own process: bodies are checked, and a wrong one makes the run invalid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLoad } from '../../bench/lib/load';
import { startServer, type ServerProcess } from '../../bench/lib/processes';
import { elicitationRound, simpleCall } from '../../bench/scenarios';

let parley: ServerProcess;
beforeAll(async () => {
  parley = await startServer('parley');
});
afterAll(() => parley?.stop());

describe('the benchmark harness', () => {
  it('checks every body of a simple-call run', async () => {
    const run = await runLoad(parley.url, simpleCall(), { connections: 4, amount: 40 });
    expect(run).toMatchObject({ checked: 40, bad: 0, errors: 0, non2xx: 0, valid: true });
  });

  it('marks a run invalid when the bodies are not the expected result', async () => {
    const run = await runLoad(parley.url, simpleCall('Hello, somebody else!'), { connections: 2, amount: 10 });
    expect(run.valid).toBe(false);
    expect(run.bad).toBe(10);
    expect(run.badSample).toContain('Hello, bench!');
  });

  it('completes elicitation rounds, answering each input_required with its requestState', async () => {
    const run = await runLoad(parley.url, elicitationRound(), { connections: 2, amount: 20 });
    expect(run).toMatchObject({ checked: 20, bad: 0, valid: true });
    expect(run.cycleP50).toBeGreaterThan(0);
  });
});
