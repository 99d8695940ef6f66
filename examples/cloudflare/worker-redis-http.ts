// The help-desk Worker for clients before 2026-07-28 too: Redis over HTTP (UPSTASH_REDIS_REST_URL and
// UPSTASH_REDIS_REST_TOKEN in the Worker's env) keeps their sessions and questions. It costs @upstash/redis in the bundle.
import { enableRedisHttp } from 'parley-mcp/redis-http';

enableRedisHttp();

export { default } from './worker';
