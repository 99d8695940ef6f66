// What an edge bundle gets for "#node-only" (workerd, edge-light, worker, browser): stand-ins, so the bundle never
// pulls ioredis, better-sqlite3, @upstash/redis or persistent questions. Redis over HTTP comes in when the Worker's
// entry asks for it (enableRedisHttp() from parley-mcp/redis-http); the factory refuses the rest on an edge isolate.
import { providedRedisHttp } from '../stores';
import { ElicitationNotSupportedError } from '../protocol';
import type { StoreDrivers } from './node-only';

const REDIS_HTTP_NOT_IN_BUNDLE =
  "Redis over HTTP is not in this bundle: an edge bundle leaves @upstash/redis out unless the entry calls enableRedisHttp() from 'parley-mcp/redis-http' (see Parley's docs/deployment.md, Cloudflare Workers)";

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
  questions: unavailable('Persistent questions'),
  unanswered: () => Promise.reject(new ElicitationNotSupportedError('The unanswered-question policy runs on Node.js only')),
  // Not yet on the edge: a task's run outlives its response (waitUntil's limit), and the code is over the size budget.
  tasks: unavailable('Tasks (a tool with execution.taskSupport)'),
  // Not yet on the edge: the tracing code would put the help-desk Worker over its size budget.
  otel: () => Promise.resolve(undefined),
};
