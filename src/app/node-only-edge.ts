// What an edge bundle gets for "#node-only" (workerd, edge-light, worker, browser): stand-ins, so the bundle never
// pulls ioredis, better-sqlite3, @upstash/redis, tasks, persistent questions or their OpenID Connect sign-in. Redis over
// HTTP, tasks, the inbox and its sign-in come in when the Worker's entry asks for them (enableRedisHttp(), enableTasks(),
// enableInbox(), enableOidcSignIn()); the factory refuses the rest on an edge isolate.
import { providedRedisHttp } from '../stores';
import { ElicitationNotSupportedError } from '../protocol';
import type { StoreDrivers } from './node-only';
import { providedTasks } from './provided-tasks';
import { providedQuestions, providedSignIn } from './provided-questions';

const REDIS_HTTP_NOT_IN_BUNDLE =
  "Redis over HTTP is not in this bundle: an edge bundle leaves @upstash/redis out unless the entry calls enableRedisHttp() from 'parley-mcp/redis-http' (see Parley's docs/deployment.md, Cloudflare Workers)";

const TASKS_NOT_IN_BUNDLE =
  "tasks are not in this bundle: an edge bundle leaves them out unless the entry calls enableTasks() from 'parley-mcp/tasks' (Parley's docs/deployment.md)";

const notInBundle = (call: string) => `not in this bundle: the Worker's entry must call ${call}() from 'parley-mcp/inbox'`;
const INBOX_NOT_IN_BUNDLE = notInBundle('enableInbox');

const unavailable = (what: string) => () =>
  Promise.reject(new Error(`${what} is not available in this build (an edge bundle): run on Node.js`));

export const drivers: StoreDrivers = {
  redis: unavailable('Redis over TCP (ioredis)'),
  sqlite: unavailable('SQLite (better-sqlite3)'),
  redisHttp: () => {
    const driver = providedRedisHttp();
    return driver ? Promise.resolve(driver) : Promise.reject(new Error(REDIS_HTTP_NOT_IN_BUNDLE));
  },
  questionsHome: unavailable('The default question file'),
  questions: () => providedQuestions()?.questions() ?? Promise.reject(new Error(`persistent questions are ${INBOX_NOT_IN_BUNDLE}`)),
  signIn: () => providedSignIn()?.() ?? Promise.reject(new Error(`OpenID Connect sign-in is ${notInBundle('enableOidcSignIn')}`)),
  unanswered: () =>
    providedQuestions()?.unanswered() ??
    Promise.reject(new ElicitationNotSupportedError(`The unanswered-question policy is ${INBOX_NOT_IN_BUNDLE}`)),
  tasks: () => providedTasks()?.() ?? Promise.reject(new Error(TASKS_NOT_IN_BUNDLE)),
  // Not yet on the edge: the tracing code would put the help-desk Worker over its size budget.
  otel: () => Promise.resolve(undefined),
};
