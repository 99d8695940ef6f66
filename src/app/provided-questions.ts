// Persistent questions and the unanswered policy for an edge bundle, which leaves them out unless asked:
// parley-mcp/inbox's enableInbox() hands their loaders here, and the edge's #node-only stand-in (node-only-edge.ts)
// takes them from here. Node loads them without this.
import type { StoreDrivers } from './node-only';

type QuestionDrivers = Pick<StoreDrivers, 'questions' | 'unanswered'>;

let enabledQuestions: QuestionDrivers | undefined;

/** Puts the questions' loaders into a bundle that leaves them out; parley-mcp/inbox's enableInbox() calls it. */
export const provideQuestions = (load: QuestionDrivers): void => void (enabledQuestions = load);
export const providedQuestions = (): QuestionDrivers | undefined => enabledQuestions;
