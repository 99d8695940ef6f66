// The end of the event loop's turn: where runs that asked questions settle, so questions asked in parallel join one round.
import { detectRuntime } from './detect';

export type TurnEnd = (task: () => void) => void;

// Not on an edge runtime: Next.js's edge sandbox defines setImmediate as a stub that throws when called.
const immediate = detectRuntime() === 'edge' ? undefined : (globalThis as { setImmediate?: (task: () => void) => unknown }).setImmediate;

/**
 * setImmediate where the runtime has it (Node; workerd with nodejs_compat): it runs once the I/O that was ready has been
 * read, where setTimeout(0) waits a millisecond. Elsewhere, and on an edge runtime (EdgeRuntime), setTimeout(0).
 * parley-mcp/node passes its own, which also writes the turn's answers.
 */
export const defaultTurnEnd: TurnEnd = immediate ? (task) => void immediate(task) : (task) => void setTimeout(task, 0);
