// parley-mcp/node's end of each event-loop turn: runs that asked questions settle, then the turn's answers go out together.
import type { ServerResponse } from 'node:http';
import { answerFailure, PlainResponse, writePlain } from './node-response';

/**
 * Plain answers go out together at the end of the event loop's turn: setImmediate runs once every socket that was
 * ready has been read and answered. Written one by one as each was ready, each answer's write also paid the kernel's
 * wake-up of a peer that had gone back to waiting: ~51 against ~33 µs of CPU per simple call (npm run bench, 32
 * connections on loopback), and a lower p50. So that a long turn (many sockets ready, or a handler that blocks the
 * loop) does not hold the first answers back, a batch also goes out once it holds 32 answers or is 1 ms old.
 */
const MAX_BATCH = 32;
const MAX_WAIT_MS = 1;
const queued: [ServerResponse, PlainResponse][] = [];
const tasks: (() => void)[] = [];
let scheduled = false;
let oldest = 0;

const schedule = () => {
  if (scheduled) return;
  scheduled = true;
  setImmediate(endTurn);
};

/** Queues a plain answer for the turn's end; false for one that must be written now (a stream, or one read as a Response). */
export function queueAnswer(outgoing: ServerResponse, response: Response): boolean {
  if (!(response instanceof PlainResponse && response.untouched)) return false;
  const now = performance.now();
  if (queued.push([outgoing, response]) === 1) oldest = now;
  else if (queued.length >= MAX_BATCH || now - oldest >= MAX_WAIT_MS) writeAnswers();
  schedule();
  return true;
}

/**
 * parley-mcp/node's useTurnEnd: runs that asked questions settle first, and their input_required answers, made in the
 * microtasks that follow, go out with the rest of the turn's answers instead of a turn later.
 */
export function atNodeTurnEnd(task: () => void): void {
  tasks.push(task);
  schedule();
}

function endTurn(): void {
  if (tasks.length === 0) return finishTurn();
  for (const task of tasks.splice(0)) task();
  // A tick queued from a microtask runs once the microtask queue is empty: after the settled runs have answered.
  queueMicrotask(() => process.nextTick(finishTurn));
}

function finishTurn(): void {
  scheduled = false;
  if (tasks.length > 0) schedule(); // a run that suspended in the microtasks just drained waits for the next turn
  writeAnswers();
}

function writeAnswers(): void {
  for (const [outgoing, response] of queued.splice(0)) {
    try {
      writePlain(outgoing, response);
    } catch (error) {
      answerFailure(outgoing, error); // a header Node refuses: that request gets a 500, the others are still written
    }
  }
}
