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
      'Invalid elicitation.persistent: notify: expected a function, or { url, secret, includeLink?, attempts?, timeoutMs?, backoffMs? }',
    );
    const message = errorOf(() => parseConfig({ info: { name: 'x', version: '1' }, apps: [], auth: { jwksUrl: 'not a url' } }));
    expect(message).toContain('auth.jwksUrl: Invalid URL');
  });

  it('the same line reaches whoever starts the server', async () => {
    await expect(createDirect({ info: { name: 'x', version: '1' }, apps: [], auth: { secret: undefined as never } })).rejects.toThrow(
      /auth\.secret: .*environment variable/,
    );
  });
});
