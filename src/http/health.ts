// Health and readiness probes: /healthz says the process answers, /readyz that the server is built, its store answers
// and it is not shutting down. They come before every other check (a kubelet's probe names the pod's address as its
// Host, and sends no token), so their answers say nothing but yes or no.
import type { ParleyServer } from '../engine';

/** How long the store may take to answer a readiness probe's read before the server counts as not ready. */
const STORE_TIMEOUT_MS = 2_000;

/** The probe's answer: 200, or 503 with Retry-After; a body of one word (none for HEAD), never cached. */
export function probeAnswer(request: Request, ok: boolean): Response {
  const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
  if (!ok) headers['retry-after'] = '5';
  return new Response(request.method === 'HEAD' ? null : ok ? 'ok\n' : 'unavailable\n', { status: ok ? 200 : 503, headers });
}

/** True when the server's store answers a read within STORE_TIMEOUT_MS (a server with no store always does). */
export async function storeAnswers(server: ParleyServer): Promise<boolean> {
  const store = server.elicitationStore;
  if (!store) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      store.backend.get(`${store.keyPrefix}readyz`),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), STORE_TIMEOUT_MS))),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
