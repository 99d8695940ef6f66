// Row 6: the memory one Parley process holds for many older-client questions waiting for their answers.
import { readFileSync } from 'node:fs';
import { askAndLeave, openSession } from './legacy-round';
import type { ServerProcess } from './processes';

/** Resident memory of a process in bytes, from /proc. */
export function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Opens `count` calls (100 per session) that each wait on a question, and measures the server's RSS before and after. */
export async function measurePending(server: ServerProcess, count: number): Promise<{ before: number; after: number; perQuestion: number }> {
  // One controller per call: fetch would cap a shared signal's listeners at 1,500 and warn for each call after.
  const calls = Array.from({ length: count }, () => new AbortController());
  const sessions = await Promise.all(Array.from({ length: Math.ceil(count / 100) }, () => openSession(server.url)));
  const before = rssOf(server.pid);
  try {
    // In batches, so the loopback backlog is never overrun.
    for (let start = 0; start < count; start += 500)
      await Promise.all(Array.from({ length: Math.min(500, count - start) }, (_, i) => askAndLeave(server.url, sessions[Math.floor((start + i) / 100)]!, start + i + 1, calls[start + i]!.signal)));
    const after = rssOf(server.pid);
    return { before, after, perQuestion: (after - before) / count };
  } finally {
    for (const call of calls) call.abort();
  }
}
