// The redaction every log line passes: URL credentials, bearer tokens, secret fields and known values with their encodings.
import { describe, expect, it } from 'vitest';
import { createLogger, createRedactor, redactingLogger, secretsIn } from '../../src/runtime';

/** Redaction by the rules alone (no secrets given). */
const redactText = (text: string): string => createRedactor().text(text);

const SECRET = 'Canary/Pass+word=9';

describe('redaction', () => {
  it('hides the credentials of any URL, the long bearer tokens and password= query parts', () => {
    expect(redactText('Could not connect to Redis at redis://:hunter22@127.0.0.1:6379/0')).toBe(
      'Could not connect to Redis at redis://***@127.0.0.1:6379/0',
    );
    expect(redactText('rediss://default:pw@h.example and https://user@h2')).toBe('rediss://***@h.example and https://***@h2');
    expect(redactText('authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.sig')).toBe('authorization: Bearer ***');
    expect(redactText('A bearer token is required')).toBe('A bearer token is required');
    expect(redactText('redis://h:6379/?password=abc123&db=1')).toBe('redis://h:6379/?password=***&db=1');
    expect(redactText('see https://example.com/a@b')).toBe('see https://example.com/a@b');
  });

  it('hides a known value as it is, URL-encoded, base64, base64url and hex', () => {
    const redact = createRedactor([SECRET, 'short']);
    const bytes = Buffer.from(SECRET);
    for (const form of [
      SECRET,
      encodeURIComponent(SECRET),
      bytes.toString('base64'),
      bytes.toString('base64url'),
      bytes.toString('hex'),
      bytes.toString('hex').toUpperCase(),
    ])
      expect(redact.text(`x ${form} y`)).toBe('x *** y');
    expect(redact.text('a short word')).toBe('a short word'); // too short to scrub by value
  });

  it('copies details: secret fields, nested strings, and Errors with their stack, cause and fields', () => {
    const redact = createRedactor([SECRET]);
    const cause = Object.assign(new Error(`WRONGPASS for ${SECRET}`), { command: { name: 'auth', args: [SECRET] } });
    const error = new Error('Could not connect to redis://:x1y2z3@h:1', { cause });
    const copy = redact.value({
      error,
      options: { host: 'h', password: 'anything', tls: { key: 'PEM' } },
      list: [`Bearer ${'a'.repeat(20)}`],
    }) as any;
    const text = JSON.stringify(copy) + String(copy.error.stack) + String(copy.error.cause.stack);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('x1y2z3');
    expect(copy.options).toEqual({ host: 'h', password: '***', tls: { key: '***' } });
    expect(copy.error).toBeInstanceOf(Error);
    expect(copy.error.message).toBe('Could not connect to redis://***@h:1');
    expect(copy.error.cause.command).toEqual({ name: 'auth', args: '***' });
    expect(error.message).toContain('x1y2z3'); // the original is left as it was
  });

  it('hides session ids: the field, the store keys that carry one, the records that name one, the command on an error', () => {
    const id = 'Xq3_bT9-mLk2VnR8sPz4aYc1dE6fGh0J';
    const record = `{"sessionId":"${id}","elicitId":"e-1","params":{"message":"Close {ticket} \\"T-1\\"?"}}`;
    const oom = Object.assign(new Error("OOM command not allowed when used memory > 'maxmemory'."), {
      command: { name: 'set', args: [`mcp:pending:${id}:0b7c9a52-1d2e-4f3a-9b8c-7d6e5f4a3b2c`, record, 'PX', '300000'] },
    });
    const redact = createRedactor();
    const copy = redact.value({
      error: new Error('Request failed', { cause: oom }),
      sessionId: id,
      headers: { 'mcp-session-id': id },
    }) as any;
    expect(copy.error.cause.command).toEqual({ name: 'set', args: '***' });
    expect(copy.sessionId).toBe('***');
    expect(copy.headers['mcp-session-id']).toBe('***');
    const texts = [
      redact.text(`Could not store ${record} in mcp:session:${id}; then it said mcp:answer:${id}:e-1 and ended:${id}`),
      redact.text(`an escaped ${JSON.stringify(record)} and sessionId: '${id}' and Mcp-Session-Id: ${id}`),
      redact.text(`ERR unknown command 'sett', with args beginning with: 'mcp:x:${id}' '{"a":1}'`),
      JSON.stringify(copy),
      String(copy.error.cause.stack),
    ];
    for (const text of texts) {
      expect(text).not.toContain(id);
      expect(text).not.toContain('Close');
    }
    expect(texts[0]).toBe('Could not store {***} in mcp:session:***; then it said mcp:answer:*** and ended:***');
    // Lines about sessions that carry no id stay as they are.
    expect(redact.text('Refusing sessions: the process holds 3 (http.sessions.maxTotal)')).toBe(
      'Refusing sessions: the process holds 3 (http.sessions.maxTotal)',
    );
    expect(redact.text('Bad Request: Mcp-Session-Id header is required')).toBe('Bad Request: Mcp-Session-Id header is required');
  });

  it('keeps class instances and functions of plain data as they are (the server’s config view)', () => {
    class Box {
      constructor(readonly password = 'inside') {}
    }
    const fn = () => 1;
    const box = new Box();
    const data = createRedactor().data({ auth: { secret: 'jwt-secret' }, apps: [fn], logger: box, redis: 'redis://:pw@h' });
    expect(data).toEqual({ auth: { secret: '***' }, apps: [fn], logger: box, redis: 'redis://***@h' });
    expect(data.logger).toBe(box);
  });

  it('finds the secrets of a config and an environment', () => {
    const found = secretsIn(
      { auth: { secret: 'jwt-one' }, redis: { password: 'redis-two' }, elicitation: { redis: 'redis://:url%2Fthree@h:1' } },
      { VAULT_SECRET: 'vault-four', UPSTASH_REDIS_REST_TOKEN: 'token-five', PORT: '3000' },
    );
    expect(found).toEqual(expect.arrayContaining(['jwt-one', 'redis-two', 'url%2Fthree', 'url/three', 'vault-four', 'token-five']));
    expect(found).not.toContain('3000');
  });

  it('takes each secret of a listed setting (VAULT_SECRET=new,old) as a secret of its own', () => {
    const found = secretsIn({}, { VAULT_SECRET: 'vault-new-one, vault-old-two', MCP_SESSION_SECRET: 'session-a,session-b' });
    expect(found).toEqual(expect.arrayContaining(['vault-new-one', 'vault-old-two', 'session-a', 'session-b']));
    expect(createRedactor(found).text('opened with vault-old-two')).toBe('opened with ***');
  });

  it('the logger redacts messages and details; a logger the app gives sees only redacted ones', () => {
    const lines: unknown[][] = [];
    const logger = createLogger('debug', (line, details) => lines.push([line, details]), createRedactor([SECRET]));
    logger.warn(`store: ${SECRET} at redis://:pw1234@h`, new Error(`boom ${SECRET}`));
    expect(lines[0]![0]).toBe('[parley] WARN store: *** at redis://***@h');
    expect((lines[0]![1] as Error).message).toBe('boom ***');
    const seen: unknown[][] = [];
    const app = { debug: () => {}, info: () => {}, warn: () => {}, error: (m: string, d?: unknown) => seen.push([m, d]) };
    redactingLogger(app, createRedactor([SECRET])).error(`failed ${SECRET}`, { token: 'abc', note: SECRET });
    expect(seen).toEqual([['failed ***', { token: '***', note: '***' }]]);
  });
});
