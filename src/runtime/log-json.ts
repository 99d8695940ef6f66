// The JSON log format: one object a line, `{"time","level","msg",…}`, as pino, bunyan and log shippers read them. A
// detail that is an object adds its fields (a request's `requestId`, say); an Error is `error` with its name, message,
// stack, fields and cause; anything else is `details`. The line is escaped after JSON's own escaping (log-escape.ts).
import { escapeJsonText } from './log-escape';

/** The one JSON line of an entry whose message and details are already redacted. */
export function jsonLine(level: string, msg: string, details: unknown): string {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg };
  if (details instanceof Error) entry.error = details;
  else if (isRecord(details)) {
    for (const [k, v] of Object.entries(details)) if (!Object.hasOwn(entry, k)) entry[k] = v; // time, level and msg stay Parley's
  } else if (details !== undefined) entry.details = details;
  let text: string;
  try {
    text = JSON.stringify(entry, toJson);
  } catch {
    text = JSON.stringify({ time: entry.time, level, msg, details: '[not serializable]' });
  }
  return escapeJsonText(text);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Set);

/** What JSON.stringify alone would write as `{}` or refuse: errors, Maps, Sets, bigints. */
function toJson(_key: string, value: unknown): unknown {
  if (value instanceof Error) {
    const fields: Record<string, unknown> = { ...value, name: value.name, message: value.message, stack: value.stack };
    if ('cause' in value) fields.cause = value.cause;
    return fields;
  }
  if (value instanceof Map) return Object.fromEntries(value);
  if (value instanceof Set) return [...value];
  return typeof value === 'bigint' ? String(value) : value;
}
