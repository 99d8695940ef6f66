// parley-mcp/inbox: puts persistent questions, the inbox and the unanswered policy into an edge bundle (a Worker's),
// which leaves them out so that a Worker that never files a question stays small, and the inbox's OpenID Connect
// sign-in, which an inbox whose people sign in with codes does without. The bundler follows each import() below only
// from an entry that calls its function.
import { provideQuestions, provideSignIn } from './provided-questions';

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

/**
 * Puts the inbox's OpenID Connect sign-in (`http.auth.oidc`) into this Worker, beside enableInbox(): an inbox whose
 * people sign in with one-time codes leaves it out, and a Worker that sets http.auth.oidc without this call refuses to
 * start, naming it. On Node it loads without it, so the call changes nothing there.
 * @example import { enableInbox, enableOidcSignIn } from 'parley-mcp/inbox'; enableInbox(); enableOidcSignIn();
 */
export function enableOidcSignIn(): void {
  // The addressed questions' escalation and expiry come with it: only people signed in at a provider answer those.
  provideSignIn(() => Promise.all([import('../auth/oidc-sign-in'), import('../inbox/escalation')]).then(([s, e]) => ({ ...s, ...e })));
}
