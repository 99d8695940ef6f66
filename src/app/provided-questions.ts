// Persistent questions, the unanswered policy and the inbox's OpenID Connect sign-in for an edge bundle, which leaves
// them out unless asked: parley-mcp/inbox's enableInbox() and enableOidcSignIn() hand their loaders here, and the edge's
// #node-only stand-in (node-only-edge.ts) takes them from here. Node loads them without this.
import type { StoreDrivers } from './node-only';

type QuestionDrivers = Pick<StoreDrivers, 'questions' | 'unanswered'>;

let enabledQuestions: QuestionDrivers | undefined;
let enabledSignIn: StoreDrivers['signIn'] | undefined;

/** Puts the questions' loaders into a bundle that leaves them out; parley-mcp/inbox's enableInbox() calls it. */
export const provideQuestions = (load: QuestionDrivers): void => void (enabledQuestions = load);
export const providedQuestions = (): QuestionDrivers | undefined => enabledQuestions;

/** Puts OpenID Connect sign-in's loader into a bundle that leaves it out; parley-mcp/inbox's enableOidcSignIn() calls it. */
export const provideSignIn = (load: StoreDrivers['signIn']): void => void (enabledSignIn = load);
export const providedSignIn = (): StoreDrivers['signIn'] | undefined => enabledSignIn;
