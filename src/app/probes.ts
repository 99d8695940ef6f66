// Where the health and readiness probes answer, read from the config before the server is built: a Worker builds it
// on its first request, which may well be a probe.
import { healthSchema } from '../model';
import { configOf, type ServerInput } from './build-server';

/** 'live': the process answers (/healthz); 'ready': the server can serve (/readyz). */
type Probe = 'live' | 'ready';

/**
 * The probes by path, empty when `health.enabled` is false. A config that does not validate keeps the default paths:
 * its /readyz answers 503 (the build fails) and the log says what to fix.
 */
export function probePaths(input: ServerInput): Map<string, Probe> {
  let raw: unknown;
  try {
    raw = configOf(input).health;
  } catch {
    // not a server class: the build says so
  }
  const parsed = healthSchema.safeParse(raw ?? {});
  const health = parsed.success ? parsed.data : healthSchema.parse({});
  return health.enabled
    ? new Map<string, Probe>([
        [health.healthzPath, 'live'],
        [health.readyzPath, 'ready'],
      ])
    : new Map();
}
