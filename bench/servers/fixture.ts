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
