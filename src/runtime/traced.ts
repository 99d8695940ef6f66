// The one piece of tracing the core bundles: the implementation (src/runtime/telemetry.ts) loads through "#node-only".
import type { RequestTrace } from './telemetry';

/** `work`, ending `trace` (if any) when it settles. */
export const traced = <T extends Record<string, unknown>>(trace: RequestTrace | undefined, work: Promise<T>): Promise<T> =>
  trace ? trace.watch(work) : work;
