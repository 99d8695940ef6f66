// The framework's logger: leveled lines on stderr (console.error), never stdout, so stdio stays clean.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(level: LogLevel = 'info', sink: (line: string, details?: unknown) => void = defaultSink): Logger {
  const at = (l: LogLevel) => (message: string, details?: unknown) => {
    if (RANK[l] >= RANK[level]) sink(`[parley] ${l.toUpperCase()} ${message}`, details);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function defaultSink(line: string, details?: unknown): void {
  if (details === undefined) console.error(line);
  else console.error(line, details);
}

/** Renders a record the way the docs' log lines show it: { type: 'redis', keyPrefix: 'mcp:' }. */
export function formatRecord(record: Record<string, unknown>): string {
  const parts = Object.entries(record).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : String(v)}`);
  return `{ ${parts.join(', ')} }`;
}
