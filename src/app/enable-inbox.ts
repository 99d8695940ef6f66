// parley-mcp/inbox: puts persistent questions, the inbox and the unanswered policy into an edge bundle (a Worker's),
// which leaves them out so that a Worker that never files a question stays small. The bundler follows the import()s
// below only from an entry that calls enableInbox().
import { provideQuestions } from './provided-questions';

/**
 * Puts persistent questions into this Worker: `persist` on elicit(), the inbox's page and routes under /_frontmcp/,
 * and `elicitation.unanswered`. They are kept in the elicitation store, which on an edge runtime is Durable Objects
 * (enableDurableObjects()) or Redis over HTTP (enableRedisHttp()). On Node they load without it, so the call changes
 * nothing there.
 * @example import { enableInbox } from 'parley-mcp/inbox'; enableInbox(); export default createWorker(config);
 */
export function enableInbox(): void {
  provideQuestions({ questions: () => import('./question-setup'), unanswered: () => import('../elicitation/unanswered') });
}
