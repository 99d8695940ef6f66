// The store drivers where TCP and files exist (package.json "#node-only", default condition): loaded on first use.
import type { StoreDrivers } from './node-only';

/**
 * The drivers are optional peer dependencies: a store whose package is not installed fails its server's start with
 * one line that names the package and how to install it, not a module-not-found stack.
 */
const needs =
  <T>(pkg: string, what: string, load: () => Promise<T>) =>
  (): Promise<T> =>
    load().catch((error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      const missing =
        (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes(`'${pkg}'`);
      if (!missing) throw error;
      throw new Error(`${what} needs the ${pkg} package, which is not installed: run npm install ${pkg}`);
    });

export const drivers: StoreDrivers = {
  redis: needs('ioredis', 'Redis over TCP', () => import('../stores/redis')),
  sqlite: needs('better-sqlite3', 'SQLite', () => import('../stores/sqlite')),
  redisHttp: needs('@upstash/redis', 'Redis over HTTP', () => import('../stores/redis-http')),
  questionsHome: () => import('../inbox/home-file'),
  questions: () => import('./question-setup'),
  // The addressed questions' deadlines come with the sign-in their people need (inbox/escalation.ts).
  signIn: () => Promise.all([import('../auth/oidc-sign-in'), import('../inbox/escalation')]).then(([s, e]) => ({ ...s, ...e })),
  unanswered: () => import('../elicitation/unanswered'),
  tasks: () => import('../engine/tasks/task-runtime'),
  otel: (given) => import('../runtime/telemetry').then((t) => t.loadTelemetry(given, () => import('@opentelemetry/api'))),
};
