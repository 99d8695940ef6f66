// serve() configured by a container's environment: HOST, PORT, LOG_LEVEL and PUBLIC_URL, code first, the banner naming
// where each setting came from, and a bad value refused with the variable's name and what to write.
import { afterEach, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from 'parley-mcp/node';
import { sparePort } from '../helpers/ports';

const VARS = ['HOST', 'PORT', 'LOG_LEVEL', 'PUBLIC_URL'] as const;
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));
const running: RunningServer[] = [];
afterEach(async () => {
  for (const v of VARS) saved[v] === undefined ? delete process.env[v] : (process.env[v] = saved[v]);
  await Promise.all(running.splice(0).map((r) => r.close({ graceMs: 0 })));
});

function start(options: Parameters<typeof serve>[1] = {}) {
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);
  const logger = { debug: log, info: log, warn: log, error: log };
  return serve({ info: { name: 'env', version: '1.0.0' }, logger }, options).then((r) => {
    running.push(r);
    return { r, settings: lines.find((l) => l.trimStart().startsWith('settings')) };
  });
}

describe('serve() from the environment', () => {
  it('listens on HOST and PORT, takes PUBLIC_URL as http.publicUrl, and the banner says each came from env', async () => {
    const port = await sparePort();
    Object.assign(process.env, { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'WARN', PUBLIC_URL: 'https://mcp.example.com/' });
    const { r, settings } = await start();
    expect(r.url).toBe(`http://127.0.0.1:${port}/mcp`);
    expect(settings).toBe(
      `  settings     host 127.0.0.1 (env HOST), port ${port} (env PORT), log level warn (env LOG_LEVEL), public URL https://mcp.example.com (env PUBLIC_URL)`,
    );
    // The public origin passes the Origin check: a page there may call; another origin may not.
    const from = (origin: string) =>
      fetch(r.url, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{}' }).then((x) => x.status);
    expect(await from('https://mcp.example.com')).not.toBe(403);
    expect(await from('https://other.example')).toBe(403);
  });

  it('code comes first, defaults last', async () => {
    process.env.PORT = '1';
    const { settings } = await start({ port: 0 });
    expect(settings).toBe('  settings     host 127.0.0.1 (default), port 0 (code), log level info (default)');
  });

  it.each([
    ['PORT', 'eighty', 'PORT="eighty" is not valid: write a port number from 0 to 65535 (0 picks a free one)'],
    ['PORT', '70000', 'PORT="70000" is not valid: write a port number from 0 to 65535'],
    ['HOST', 'my host', 'HOST="my host" is not valid: write an address, such as 0.0.0.0 (every interface) or 127.0.0.1'],
    ['LOG_LEVEL', 'verbose', 'LOG_LEVEL="verbose" is not valid: write debug, info, warn or error'],
    [
      'PUBLIC_URL',
      'https://mcp.example.com/mcp',
      'PUBLIC_URL="https://mcp.example.com/mcp" is not valid: write the origin clients reach the server at, like https://mcp.example.com, with no path',
    ],
  ])('%s=%s is refused, naming the variable and what to write', async (variable, value, message) => {
    process.env[variable] = value;
    const error = await start().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain(message);
    expect(error?.stack).not.toMatch(/\n\s+at /);
  });
});
