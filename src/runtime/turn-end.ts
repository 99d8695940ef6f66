// The end of the event loop's turn: where runs that asked questions settle, so questions asked in parallel join one round.
type TurnEnd = (task: () => void) => void;

const immediate = (globalThis as { setImmediate?: (task: () => void) => unknown }).setImmediate;

/**
 * setImmediate where the runtime has it (Node): it runs once the I/O that was ready has been read, where setTimeout(0)
 * waits a millisecond. Elsewhere setTimeout(0). parley-mcp/node supplies its own, which also writes the turn's answers.
 */
let turnEnd: TurnEnd = immediate ? (task) => void immediate(task) : (task) => void setTimeout(task, 0);

export function useTurnEnd(scheduler: TurnEnd): void {
  turnEnd = scheduler;
}

/** Runs `task` in a macrotask at the end of this turn. */
export const atTurnEnd = (task: () => void): void => turnEnd(task);
