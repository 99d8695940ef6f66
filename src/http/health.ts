// Health and readiness probes: /healthz says the process answers, /readyz that the server is built, its stores answer
// and it is not shutting down. They come before every other check (a kubelet's probe names the pod's address as its
// Host, and sends no token), so their answers say nothing but yes or no.
import type { ParleyServer } from '../engine';
import type { StoreBackend } from '../stores';

/** How long the store may take to answer a readiness probe's read before the server counts as not ready. */
const STORE_TIMEOUT_MS = 2_000;

/** The probe's answer: 200, or 503 with Retry-After; a body of one word (none for HEAD), never cached. */
export function probeAnswer(request: Request, ok: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
  if (!ok) headers['retry-after'] = '5';
  return new Response(request.method === 'HEAD' ? null : ok ? 'ok\n' : 'unavailable\n', { status: ok ? 200 : 503, headers });
}

/**
 * True when every store the server depends on answers a read within STORE_TIMEOUT_MS: the elicitation store (older
 * clients' sessions live there too) and persistent questions' store, each read once. A server with none always is.
 */
export async function storesAnswer(server: ParleyServer): Promise<boolean> {
  const reads = new Map<StoreBackend, string>();
  const store = server.elicitationStore;
  if (store) reads.set(store.backend, `${store.keyPrefix}readyz`);
  const questions = server.questions?.store;
  if (questions && !reads.has(questions.backend)) reads.set(questions.backend, `${questions.codec.prefix}readyz`);
  if (reads.size === 0) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all([...reads].map(([backend, key]) => backend.get(key))),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), STORE_TIMEOUT_MS))),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
