// Parley on Node (parley-mcp/node serve), in its own process; BENCH_REDIS_URL puts sessions and questions in Redis.
import { serve } from 'parley-mcp/node';
import { announce, exitOnSignal } from './fixture';
import { benchConfig } from './parley-app';

const running = await serve(benchConfig(process.env.BENCH_REDIS_URL), { port: 0 });
exitOnSignal(() => running.close());
announce(running.port);
