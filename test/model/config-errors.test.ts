// A config that does not validate names the field to fix by its whole path, and says what an undefined value usually
// means (an unset environment variable), where zod alone said `auth: Invalid input` (#34).
import { describe, expect, it } from 'vitest';
import { createDirect } from 'parley-mcp';
import { parseConfig } from '../../src/model';
import { readNotifyOption } from '../../src/inbox/notify-options';

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('startup errors for a config written with process.env', () => {
  it('auth: { secret: process.env.AUTH_SECRET } with the variable unset names auth.secret and the variable', () => {
    const message = errorOf(() => parseConfig({ info: { name: 'x', version: '1' }, apps: [], auth: { secret: undefined } }));
    expect(message).toContain('auth.secret: Invalid input: expected string, received undefined');
    expect(message).toMatch(/environment variable.*is not set: set it, or write the value/);
    expect(message).not.toMatch(/auth: Invalid input\b/);
  });

  it('a webhook whose secret is unset names notify.secret, not "expected a function, or { url, secret, … }"', () => {
    const message = errorOf(() => readNotifyOption({ url: 'https://hooks.example.com/parley', secret: undefined }));
    expect(message).toMatch(
      /^Invalid elicitation\.persistent: notify\.secret: Invalid input: expected string, received undefined \(it is undefined: .*environment variable/,
    );
  });

  it("a value that fits no branch at all keeps the option's own words", () => {
    expect(errorOf(() => readNotifyOption(42))).toBe(
      'Invalid elicitation.persistent: notify: expected a function, or { url, secret, includeLink?, actionLinks?, actionLinkMaxAgeMs?, attempts?, timeoutMs?, backoffMs? }',
    );
    const message = errorOf(() => parseConfig({ info: { name: 'x', version: '1' }, apps: [], auth: { jwksUrl: 'not a url' } }));
    expect(message).toContain('auth.jwksUrl: Invalid URL');
  });

  it('tasks.attempts and tasks.leaseMs out of range say what they count and their bounds', () => {
    const config = (tasks: Record<string, unknown>) => ({ info: { name: 'x', version: '1' }, apps: [], tasks });
    expect(errorOf(() => parseConfig(config({ attempts: 0 })))).toContain(
      'tasks.attempts: tasks.attempts must be at least 1: how many times a stretch of work is started, its first run included',
    );
    expect(errorOf(() => parseConfig(config({ attempts: 2.5 })))).toContain('tasks.attempts must be a whole number of times, at least 1');
    expect(errorOf(() => parseConfig(config({ attempts: '3' })))).toContain('tasks.attempts must be a whole number of times, at least 1');
    expect(errorOf(() => parseConfig(config({ leaseMs: 50 })))).toContain('tasks.leaseMs must be at least 300 (ms)');
    expect(parseConfig(config({})).tasks).toMatchObject({ attempts: 3, leaseMs: 30_000 });
  });

  it('the same line reaches whoever starts the server', async () => {
    await expect(createDirect({ info: { name: 'x', version: '1' }, apps: [], auth: { secret: undefined as never } })).rejects.toThrow(
      /auth\.secret: .*environment variable/,
    );
  });
});
