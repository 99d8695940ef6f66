// The framework's logger: leveled lines. On Node every level goes to stderr (console.error), never stdout, so stdio
// stays clean; elsewhere (workerd, edge runtimes) each level goes to its console method, so wrangler shows an INFO line
// as info, not as a red ERROR. Every line and its details pass the redactor first (src/runtime/redact.ts): no URL
// credentials, tokens or known secrets get written; then the escaper (src/runtime/log-escape.ts): no control character,
// line separator or bidi control from a client gets written raw, so no line can be forged.
import { detectRuntime } from './detect';
import { escapeLogText, escapeLogValue } from './log-escape';
import { jsonLine } from './log-json';
import { createRedactor, type Redactor } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** `text`: `[parley] INFO message` and the details after it; `json`: one object a line (src/runtime/log-json.ts). */
type LogFormat = 'text' | 'json';
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Whether a name from outside (LOG_LEVEL) is one of Parley's log levels. */
export const isLogLevel = (name: string): name is LogLevel => Object.hasOwn(RANK, name);

/** Redacts by the rules alone unless given a redactor that knows the server's secrets. Text unless told `json`. */
export function createLogger(
  settings: LogLevel | { level?: LogLevel; format?: LogFormat } = 'info',
  sink?: (line: string, details?: unknown, level?: LogLevel) => void,
  redactor: Redactor = createRedactor(),
): Logger {
  const { level = 'info', format = 'text' } = typeof settings === 'string' ? { level: settings } : settings;
  const write = sink ?? (format === 'json' ? defaultJsonSink : defaultSink);
  const at = (l: LogLevel) => (message: string, details?: unknown) => {
    if (RANK[l] < RANK[level]) return;
    if (format === 'json')
      return write(jsonLine(l, redactor.text(message), details === undefined ? undefined : redactor.value(details)), undefined, l);
    const line = escapeLogText(redactor.text(`[parley] ${l.toUpperCase()} ${message}`));
    if (details === undefined) write(line, undefined, l);
    else write(line, escapeLogValue(redactor.value(details)), l);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A logger the app gave (`config.logger`), behind the same redaction and escaping: it sees only redacted, escaped messages and details. */
export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  const out = {} as Logger;
  for (const l of LEVELS)
    out[l] = (message, details) => {
      const text = escapeLogText(redactor.text(message));
      if (details === undefined) logger[l](text);
      else logger[l](text, escapeLogValue(redactor.value(details)));
    };
  return out;
}

function defaultSink(line: string, details?: unknown, level: LogLevel = 'error'): void {
  // Asked per line, not once: cheap, and right in a test that pretends to be another runtime.
  const write = detectRuntime() === 'node' ? console.error : console[level];
  if (details === undefined) write(line);
  else write(line, details);
}

/** JSON lines: on Node one a line on stderr; elsewhere the object, whose fields Workers Logs indexes (a string is one message). */
function defaultJsonSink(line: string, _details?: unknown, level: LogLevel = 'error'): void {
  if (detectRuntime() === 'node') console.error(line);
  else console[level](JSON.parse(line));
}

/** Renders a record the way the docs' log lines show it: { type: 'redis', keyPrefix: 'mcp:' }. */
export function formatRecord(record: Record<string, unknown>): string {
  const parts = Object.entries(record).map(([k, v]) => `${k}: ${typeof v === 'string' ? `'${v}'` : String(v)}`);
  return `{ ${parts.join(', ')} }`;
}
