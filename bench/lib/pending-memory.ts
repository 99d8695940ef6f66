// Row 6: the memory one Parley process holds for many older-client questions waiting for their answers.
import { readFileSync } from 'node:fs';
import { askAndLeave, openSession } from './legacy-round';
import type { ServerProcess } from './processes';

/** Resident memory of a process in bytes, from /proc. */
export function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** After a full collection in a server started with --expose-gc: its RSS and what is alive (V8 heap, external memory
 * and array buffers), in bytes. The server prints them on SIGUSR2 (bench/servers/parley.ts). */
async function collected(server: ServerProcess): Promise<{ rss: number; live: number }> {
  const seen = server
    .logTail(1000)
    .split('\n')
    .filter((l) => l.startsWith('MEMORY ')).length;
  process.kill(server.pid, 'SIGUSR2');
  for (let i = 0; i < 200; i++) {
    const lines = server
      .logTail(1000)
      .split('\n')
      .filter((l) => l.startsWith('MEMORY '));
    if (lines.length > seen) {
      const [, rss, live] = lines.at(-1)!.split(' ').map(Number);
      return { rss: rss!, live: live! };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the server did not report its memory after a collection (started without --expose-gc?)');
}

/** Opens `count` calls (100 per session) that each wait on a question, and measures the server's RSS before and after,
 * as the process holds it and after a full collection (RSS and live memory): garbage not yet collected is no question's. */
export async function measurePending(
  server: ServerProcess,
  count: number,
): Promise<{ before: number; after: number; perQuestion: number; collected: { rss: number; live: number } }> {
  // One controller per call: fetch would cap a shared signal's listeners at 1,500 and warn for each call after.
  const calls = Array.from({ length: count }, () => new AbortController());
  const sessions = await Promise.all(Array.from({ length: Math.ceil(count / 100) }, () => openSession(server.url)));
  const before = rssOf(server.pid);
  const base = await collected(server);
  try {
    // In batches, so the loopback backlog is never overrun.
    for (let start = 0; start < count; start += 500)
      await Promise.all(
        Array.from({ length: Math.min(500, count - start) }, (_, i) =>
          askAndLeave(server.url, sessions[Math.floor((start + i) / 100)]!, start + i + 1, calls[start + i]!.signal),
        ),
      );
    const after = rssOf(server.pid);
    const held = await collected(server);
    return {
      before,
      after,
      perQuestion: (after - before) / count,
      collected: { rss: (held.rss - base.rss) / count, live: (held.live - base.live) / count },
    };
  } finally {
    for (const call of calls) call.abort();
  }
}
