// Parley on Node (parley-mcp/node serve), in its own process; BENCH_REDIS_URL puts sessions and questions in Redis,
// BENCH_REQUEST_STATE=signed issues signed requestStates instead of sealed ones.
import { serve } from 'parley-mcp/node';
import { announce, exitOnSignal } from './fixture';
import { benchConfig } from './parley-app';

const running = await serve(benchConfig(process.env.BENCH_REDIS_URL, process.env.BENCH_REQUEST_STATE === 'signed' ? 'signed' : 'sealed'), {
  port: 0,
});
exitOnSignal(() => running.close());
// Started with --expose-gc (row 6): on SIGUSR2, a full collection, then one stdout line with what is left alive.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc)
  process.on('SIGUSR2', () => {
    gc();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    console.log(`MEMORY ${rss} ${heapUsed + external + arrayBuffers}`);
  });
announce(running.port);
