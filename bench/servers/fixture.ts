// What every benchmarked server serves, and what a correct answer looks like: shared by the servers and the harness.
export const SIMPLE_TOOL = 'greet';
export const SIMPLE_ARGS = { name: 'bench' };
export const SIMPLE_TEXT = 'Hello, bench!';
/** The simple tool again with its input as plain JSON Schema (Parley only): what JSON Schema validation costs a call. */
export const SIMPLE_JSON_TOOL = 'greet_json';
export const greeting = (name: string) => `Hello, ${name}!`;

/**
 * The result the ceilings answer the simple call with: the bytes Parley answers it with, which are what a 2026-07-28
 * server owes it (resultType is required on every result; serverInfo SHOULD be on every result, as the bench server's
 * info: bench 1.0.0). A ceiling that answered less would be measuring a smaller answer.
 */
export const simpleResult = (name: string) => ({
  resultType: 'complete',
  content: [{ type: 'text', text: greeting(name) }],
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } },
});

export const ROUND_TOOL = 'confirm_order';
export const roundQuestion = (id: string) => `Confirm order ${id}?`;
export const roundDone = (id: string) => `Order ${id} confirmed`;

/** Row 10's tools, served when BENCH_TASKS is set: a task that needs no input (its result is `greeting(name)`), and a
 * task that asks ROUND_TOOL's question (`roundQuestion(id)`, then `roundDone(id)`). */
export const TASK_TOOL = 'greet_task';
export const TASK_QUESTION_TOOL = 'confirm_order_task';

/** The header the task servers (BENCH_TASKS) take an anonymous caller's address from (http.clientAddressHeader): row
 * 11's 10,000 tasks are 100 callers' 100 each, as row 6's questions are 100 sessions' 100; row 12's tasks are each
 * another caller's (bench/README.md, row 12, says why). */
export const CLIENT_ADDRESS_HEADER = 'x-bench-client';

/** Rows 12 and 13's tool (BENCH_TASKS): three questions asked one after another, `threeQuestion(id, 1..3)`, then
 * `threeDone(id)`. Its task support is optional: called with the tasks extension it is a task (each answer replays it),
 * without, a 2026-07-28 call of three rounds. */
export const THREE_TOOL = 'confirm_three';
export const threeQuestion = (id: string, n: number) => `Check ${n} of 3 for order ${id}?`;
export const threeDone = (id: string) => `Order ${id} passed 3 checks`;

/** The state key every server signs requestState with (32 bytes, as the official codec requires). */
export const STATE_SECRET = 'bench-state-secret-0123456789abcdef';

/** How a server process tells the harness it listens: one stdout line. */
export const announce = (port: number) => console.log(`LISTENING ${port}`);

/** Stops on SIGTERM with a normal exit, so `node --cpu-prof` writes its profile. */
export function exitOnSignal(close: () => Promise<void> | void): void {
  const stop = async () => {
    await close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
