// The settings a container gives serve() in its environment (HOST, PORT, LOG_LEVEL, PUBLIC_URL): code first, then the
// variable, then the default, each remembered with where it came from for the banner. A bad value stops the start
// with the variable's name and what to write.
import { isLogLevel } from '../runtime';

/** Where a setting came from: the config or serve()'s options, the environment, or Parley's default. */
type SettingSource = 'code' | 'env' | 'default';

interface Setting<T> {
  value: T;
  source: SettingSource;
  /** The variable read (or that would be read), for the banner: `env PORT`. */
  variable: string;
}

/** Each variable's check: the value to use, or what to write instead. */
const READERS = {
  HOST: (raw: string) =>
    /^[\w.:[\]-]+$/.test(raw) ? { value: raw } : { fix: 'write an address, such as 0.0.0.0 (every interface) or 127.0.0.1' },
  PORT: (raw: string) =>
    /^\d{1,5}$/.test(raw) && Number(raw) <= 65535
      ? { value: Number(raw) }
      : { fix: 'write a port number from 0 to 65535 (0 picks a free one)' },
  LOG_LEVEL: (raw: string) => {
    const level = raw.toLowerCase();
    return isLogLevel(level) ? { value: level } : { fix: 'write debug, info, warn or error' };
  },
  PUBLIC_URL: (raw: string) => {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    return url && /^https?:$/.test(url.protocol) && url.pathname === '/' && !url.search && !url.hash
      ? { value: url.origin }
      : { fix: 'write the origin clients reach the server at, like https://mcp.example.com, with no path (the path is http.path)' };
  },
} satisfies Record<string, (raw: string) => { value: unknown } | { fix: string }>;

type Variable = keyof typeof READERS;
type ValueOf<V extends Variable> = Extract<ReturnType<(typeof READERS)[V]>, { value: unknown }>['value'];

/**
 * One setting: `code` when given, else the variable when set (checked), else `fallback`.
 * @example setting('PORT', options.port, 3000) // { value: 8080, source: 'env', variable: 'PORT' } with PORT=8080
 */
export function setting<V extends Variable, D>(
  variable: V,
  code: ValueOf<V> | undefined,
  fallback: D,
  env: Record<string, string | undefined> = process.env,
): Setting<ValueOf<V> | D> {
  if (code !== undefined) return { value: code, source: 'code', variable };
  const raw = env[variable];
  if (raw === undefined || raw === '') return { value: fallback, source: 'default', variable };
  const read = READERS[variable](raw) as { value: ValueOf<V> } | { fix: string };
  if ('fix' in read) {
    const error = new Error(`${variable}=${JSON.stringify(raw)} is not valid: ${read.fix}`);
    error.stack = `Error: ${error.message}`; // nothing in Parley's stack helps the reader
    throw error;
  }
  return { value: read.value, source: 'env', variable };
}

/** `port 3000 (default), host 0.0.0.0 (env HOST)`: the banner's line on where the settings came from. */
export function describeSettings(settings: Record<string, Setting<unknown>>): string {
  const from = (s: Setting<unknown>) => (s.source === 'env' ? `env ${s.variable}` : s.source);
  return Object.entries(settings)
    .filter(([, s]) => s.value !== undefined)
    .map(([name, s]) => `${name} ${String(s.value)} (${from(s)})`)
    .join(', ');
}
