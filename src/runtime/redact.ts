// Keeping secrets out of what a server writes: log lines and their details, error messages and causes, its own view of
// its config. One rule: credentials in URLs, long bearer tokens, `password=` query parts, fields named like secrets,
// and the values the server knows are secret (also as base64, base64url, hex and URL-encoded) become `***`. Session
// ids are secrets too (without auth, an id lets its holder act in the session): a `sessionId` field, the store's keys
// that carry one, the records that name one, and the command a store driver hangs on its error (its keys and values).
const REDACTED = '***';

/** Shorter known values are left to the rules above: scrubbing every "abc" from a log would hide more than it protects. */
const MIN_SECRET_LENGTH = 6;
const MAX_DEPTH = 8;

const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"<>]+@/gi;
// Long enough to be a token: "a bearer token is required" stays readable.
const BEARER = /\b(bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/gi;
const QUERY_SECRET = /([?&;](?:password|pass|token|secret|access_token|auth)=)[^&\s#'"]+/gi;
const SECRET_FIELD = /(secret|passw(?:or)?d|passphrase|token|credentials?|authorization|api[-_]?key|private[-_]?key|pfx|cookie)$/i;
/** `"sessionId":"…"`, `sessionId: '…'`, `mcp-session-id: …`, `session_id=…`: the id, in JSON, inspected or a header. */
const SESSION_ID = /(\bsession[-_]?id\\?["']?\s*[:=]\s*\\?["']?)[A-Za-z0-9_-]{8,}/gi;
/** The store's keys that carry a session id: `<prefix>session:<id>`, `pending:<id>:<question>`, `answer:…`, `ended:…`. */
const SESSION_KEY = /\b((?:session|pending|answer|ended):)[A-Za-z0-9_-]{16,}(?::[A-Za-z0-9_-]+)?/g;
/** Redis quotes a refused command's arguments (keys, values) in its error: `…, with args beginning with: 'mcp:…' …`. */
const REDIS_ARGS = /(with args beginning with:)[^\n]*/gi;
/** Where a stored record starts: every one names its session first, as JSON or as JSON inside a JSON string. */
const RECORD = /\{\\?"sessionId\\?":/g;
const SESSION_FIELD = /^(?:session[-_]?id|mcp-session-id)$/i;

/** True for a field or variable whose value is a secret wherever it appears: `password`, `auth.secret`, `UPSTASH_REDIS_REST_TOKEN`, `tls.key`. */
const isSecretField = (name: string): boolean => SECRET_FIELD.test(name) || name.toLowerCase() === 'key';

/** A field whose value is never logged: a secret's, or a session id's. */
const hiddenField = (name: string): boolean => isSecretField(name) || SESSION_FIELD.test(name);

/** The text with each stored record (`{"sessionId":…}` to its closing brace, or to the end) replaced by `{***}`. */
function withoutRecords(text: string): string {
  let out = '';
  let from = 0;
  for (const match of text.matchAll(RECORD)) {
    if (match.index < from) continue; // inside a record already cut
    out += `${text.slice(from, match.index)}{${REDACTED}}`;
    from = closingBrace(text, match.index);
  }
  return from === 0 ? text : out + text.slice(from);
}

/** Just past the brace that closes the object opening at `start` (strings skipped), or the text's end. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  let quoted = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === '{') depth++;
    else if (!quoted && c === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

export interface Redactor {
  /** The text with every secret in it replaced by `***`. */
  text(text: string): string;
  /** A copy of a value to log: strings redacted, secret fields replaced, Errors copied with message, stack, cause and fields redacted. */
  value(value: unknown): unknown;
  /** A copy of plain data (objects and arrays, as a parsed config is) redacted the same way; class instances and functions are kept as they are. */
  data<T>(value: T): T;
}

/** The forms a known secret may take in text: as it is, URL-encoded, base64, base64url and hex. */
function formsOf(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  const base64 = btoa(binary);
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return [
    secret,
    encodeURIComponent(secret),
    base64,
    base64.replace(/=+$/, ''),
    base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
    hex,
    hex.toUpperCase(),
  ];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A redactor that also knows these values are secret.
 * @example const redact = createRedactor([process.env.VAULT_SECRET]); redact.text(`redis://:pw@host`); // 'redis://***@host'
 */
export function createRedactor(secrets: Iterable<string | undefined> = []): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets)
    if (typeof secret === 'string' && secret.length >= MIN_SECRET_LENGTH) for (const form of formsOf(secret)) forms.add(form);
  // Longest first, so a value inside another is not replaced half.
  const known = forms.size
    ? new RegExp(
        [...forms]
          .sort((a, b) => b.length - a.length)
          .map(escape)
          .join('|'),
        'g',
      )
    : undefined;
  const text = (input: string): string => {
    let out = input.replace(URL_CREDENTIALS, `$1${REDACTED}@`).replace(BEARER, `$1${REDACTED}`).replace(QUERY_SECRET, `$1${REDACTED}`);
    // Fast path: text with no session in it (most lines) skips the session rules.
    if (/session|pending:|answer:|ended:|args beginning/i.test(out))
      out = withoutRecords(out)
        .replace(SESSION_ID, `$1${REDACTED}`)
        .replace(SESSION_KEY, `$1${REDACTED}`)
        .replace(REDIS_ARGS, `$1 ${REDACTED}`);
    if (known) out = out.replace(known, REDACTED);
    return out;
  };
  const value = (input: unknown, plain: boolean, depth = 0, seen = new WeakSet<object>()): unknown => {
    if (typeof input === 'string') return text(input);
    if (typeof input !== 'object' || input === null) return input; // numbers, functions and the like carry no text
    if (plain && !Array.isArray(input) && !isPlainObject(input)) return input;
    if (seen.has(input)) return '[Circular]';
    if (depth >= MAX_DEPTH) return '[…]';
    seen.add(input);
    const inner = (v: unknown) => value(v, plain, depth + 1, seen);
    try {
      if (input instanceof Error) return copyError(input, inner);
      if (Array.isArray(input)) return input.map(inner);
      if (ArrayBuffer.isView(input) || input instanceof Date) return input;
      if (input instanceof Map)
        return new Map([...input].map(([k, v]) => [k, typeof k === 'string' && hiddenField(k) ? REDACTED : inner(v)]));
      if (input instanceof Set) return new Set([...input].map(inner));
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(input)) out[k] = hiddenField(k) && v !== undefined && v !== null ? REDACTED : inner(v);
      return out;
    } finally {
      seen.delete(input);
    }
  };
  return { text, value: (input) => value(input, false), data: <T>(input: T) => value(input, true) as T };
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function copyError(error: Error, inner: (v: unknown) => unknown): Error {
  const copy = new Error(inner(error.message) as string);
  copy.name = error.name;
  copy.stack = typeof error.stack === 'string' ? (inner(error.stack) as string) : undefined;
  // Drivers hang the command on their errors (ioredis: { name: 'set', args: [key, record, …] }): its name stays, its
  // arguments (passwords, keys that carry a session id, records) never show.
  for (const [k, v] of Object.entries(error))
    (copy as unknown as Record<string, unknown>)[k] =
      hiddenField(k) && v != null
        ? REDACTED
        : k === 'command' && typeof v === 'object' && v !== null && 'args' in v
          ? { ...(inner(v) as object), args: REDACTED }
          : inner(v);
  if ('cause' in error) copy.cause = inner(error.cause);
  const errors = (error as { errors?: unknown }).errors; // AggregateError's, not enumerable
  if (Array.isArray(errors)) (copy as { errors?: unknown }).errors = inner(errors);
  return copy;
}

/**
 * The secret values in a config and an environment, for createRedactor: strings in secret fields (`auth.secret`, a Redis
 * `password`, an Upstash `token`, `*_SECRET`, `*_TOKEN`, `*_PASSWORD` variables) and the credentials of URLs (`REDIS_URL`).
 * Reads the platform's env bindings and process.env where it exists.
 */
export function secretsIn(...sources: unknown[]): string[] {
  const found = new Set<string>();
  const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const walk = (value: unknown, name: string, depth: number, seen: WeakSet<object>) => {
    if (typeof value === 'string') {
      if (isSecretField(name)) {
        found.add(value);
        // A secret setting may list several secrets (VAULT_SECRET=new,old): each is a secret of its own.
        if (value.includes(',')) for (const part of value.split(',')) if (part.trim()) found.add(part.trim());
      }
      for (const credentials of urlCredentials(value)) found.add(credentials);
      return;
    }
    if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH || seen.has(value) || ArrayBuffer.isView(value)) return;
    seen.add(value);
    for (const [k, v] of Object.entries(value)) walk(v, k, depth + 1, seen);
  };
  for (const source of [...sources, processEnv]) walk(source, '', 0, new WeakSet());
  return [...found];
}

/** `user:password` in `scheme://user:password@host` gives the password (and the user, only when there is no password). */
function urlCredentials(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/([^\s/?#@'"<>]+)@/gi)) {
    const info = match[1]!;
    const colon = info.indexOf(':');
    const secret = colon === -1 ? info : info.slice(colon + 1);
    out.push(secret);
    try {
      out.push(decodeURIComponent(secret));
    } catch {
      // not percent-encoded text: the raw form is enough
    }
  }
  return out;
}

/** util.inspect's hook, a registered symbol, so the core needs no node:util. */
export const INSPECT = Symbol.for('nodejs.util.inspect.custom');
type Inspect = (value: unknown, options: { depth?: number | null }) => string;

/**
 * What util.inspect shows of an object with a getter over a secret: its own fields only. (With `showHidden` and
 * `getters`, inspect would otherwise list the prototype's getters with their values.)
 * @example [INSPECT](depth, options, inspect) { return inspectFields('Store', this, options, inspect); }
 */
export function inspectFields(name: string, target: object, options: { depth?: number | null }, inspect: Inspect): string {
  const depth = options.depth === null || options.depth === undefined ? options.depth : options.depth - 1;
  return `${name} ${inspect({ ...target }, { ...options, depth })}`;
}
