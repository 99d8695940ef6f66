// Which runtime the code runs in, decided in one place: a Workers isolate, another edge runtime, or Node.
type RuntimeKind = 'workerd' | 'edge' | 'node' | 'unknown';

export function detectRuntime(): RuntimeKind {
  const g = globalThis as { navigator?: { userAgent?: string }; EdgeRuntime?: unknown; process?: { release?: { name?: string } } };
  // Never process.versions: workerd with nodejs_compat reports a Node version there.
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (typeof g.EdgeRuntime === 'string') return 'edge';
  if (g.process?.release?.name === 'node') return 'node';
  return 'unknown';
}

export const isEdgeRuntime = (kind: RuntimeKind = detectRuntime()): boolean => kind === 'workerd' || kind === 'edge';
