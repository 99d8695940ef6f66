// Request-scoped notifications: progress when the request carries a progressToken, log lines when it names a log level.
import { META, invalidParams } from '../protocol';
import type { Logger } from '../runtime';

/** Sends a notification on the request's own stream (an SSE event, a stdio line). */
export type Emit = (method: string, params: Record<string, unknown>) => void;

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type McpLogLevel = (typeof LOG_LEVELS)[number];

export interface Notifier {
  progress(progress: number, total?: number, message?: string): void;
  log(level: McpLogLevel, data: unknown, logger?: string): void;
  /**
   * Says the request waits on something slow, such as a person's answer in the inbox: a progress notification with
   * the next value and the message (when it carries a progressToken), and an info log line (when it names a level).
   */
  waiting?(message: string): void;
}

const rank = (level: string) => LOG_LEVELS.indexOf(level as McpLogLevel);

/** A request that asked for no progress and no log lines (or has no stream) gets nothing sent. */
const SILENT: Notifier = Object.freeze({ progress() {}, log() {}, waiting() {} });

/** Reads progressToken and the log level from a request's _meta; a level that is not one of the eight is -32602. */
export function createNotifier(meta: Record<string, unknown> | undefined, emit: Emit | undefined, logger: Logger): Notifier {
  const token = meta?.progressToken;
  const level = meta?.[META.logLevel];
  if (level !== undefined && rank(String(level)) < 0)
    throw invalidParams(`_meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(', ')}`);
  if (!emit || (level === undefined && typeof token !== 'string' && typeof token !== 'number')) return SILENT;
  let last = -Infinity;
  const notifier: Notifier = {
    progress(progress, total, message) {
      if (!emit || (typeof token !== 'string' && typeof token !== 'number')) return;
      // Progress must increase: a value that does not is dropped rather than sent.
      if (!(progress > last)) return logger.debug(`Dropped a progress value that did not increase (${progress} after ${last})`);
      last = progress;
      emit('notifications/progress', {
        progressToken: token,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      });
    },
    log(at, data, name) {
      // No log notifications unless the request asked for them, and then only at or above its level.
      if (!emit || level === undefined || rank(at) < rank(String(level))) return;
      emit('notifications/message', { level: at, data, ...(name !== undefined ? { logger: name } : {}) });
    },
    waiting(message) {
      // Progress must increase: the next whole value after the tool's own, with no total (the wait has none).
      notifier.progress(last === -Infinity ? 0 : Math.floor(last) + 1, undefined, message);
      notifier.log('info', message);
    },
  };
  return notifier;
}
