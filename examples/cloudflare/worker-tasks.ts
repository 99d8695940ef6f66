// The help-desk Worker with a tool that runs as a task. enableTasks() puts tasks into the bundle and Redis over HTTP
// (UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN in the Worker's env) keeps them, so any isolate answers
// tasks/get, tasks/update and tasks/cancel. The work runs under ctx.waitUntil, which Cloudflare cuts 30 s after the
// response: a task ends within that, or ends failed saying so (docs/tasks.md, "On Cloudflare Workers").
import { createWorker } from 'parley-mcp/cloudflare';
import { enableRedisHttp } from 'parley-mcp/redis-http';
import { enableTasks } from 'parley-mcp/tasks';
import { config, HelpDesk } from '../help-desk/server';
import { Exports } from './exports';

enableRedisHttp();
enableTasks();

export default createWorker({ ...config, apps: [HelpDesk, Exports] });
