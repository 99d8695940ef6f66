// serve() says what it serves when it starts, and warns about settings that bite later; `quiet` drops the banner only.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App, FrontMcp, Tool, ToolContext, z, type FrontMcpConfigInput } from 'parley-mcp';
import { serve, type RunningServer } from 'parley-mcp/node';

@Tool({ name: 'close_ticket', inputSchema: { id: z.string() } })
class CloseTicket extends ToolContext {
  execute({ id }: { id: string }) {
    return id;
  }
}

@App({ id: 'desk', tools: [CloseTicket] })
class Desk {}

const logged: { level: string; message: string }[] = [];
const logger = Object.fromEntries(
  ['debug', 'info', 'warn', 'error'].map((level) => [level, (message: string) => void logged.push({ level, message })]),
) as never;
const config = (extra: Partial<FrontMcpConfigInput> = {}): FrontMcpConfigInput => ({
  info: { name: 'Help desk', version: '1.2.3' },
  apps: [Desk],
  logger,
  ...extra,
});
const lines = (level: string) => logged.filter((l) => l.level === level).map((l) => l.message);

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  logged.length = 0;
  vi.unstubAllEnvs();
});

describe('the startup banner', () => {
  it('names the URL, the revisions, the tools and where older clients wait, a log entry a line', async () => {
    @FrontMcp({ ...config(), elicitation: { enabled: true } })
    class Server {}
    running = await serve(Server, { port: 0 });
    const info = lines('info');
    const first = info.findIndex((m) => m.includes('serving'));
    const [serving, protocol, tools, elicitation] = info.slice(first);
    expect(info.filter((m) => m.includes('serving'))).toHaveLength(1);
    expect(serving).toBe(`Help desk 1.2.3 serving ${running.url}`);
    expect(protocol).toMatch(/^ {2}protocol +2026-07-28 \(stateless\), 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05 \(sessions\)$/);
    expect(tools).toMatch(/^ {2}tools +close_ticket$/);
    expect(elicitation).toMatch(/^ {2}elicitation +on; .*a per-process key.*memory \(this process only\)$/);
    expect(lines('warn')).toEqual([]); // loopback, development, one process: nothing to warn about
  });

  it('names the requestState form the config chooses: sealed by default, signed when asked', async () => {
    running = await serve(config({ elicitation: { enabled: true } }), { port: 0 });
    expect(lines('info').join('\n')).toMatch(/asks in sealed requestState/);
    await running.close();
    logged.length = 0;
    running = await serve(config({ elicitation: { enabled: true, requestState: 'signed' } }), { port: 0 });
    expect(lines('info').join('\n')).toMatch(/asks in signed requestState/);
  });

  it('says when elicitation is off', async () => {
    running = await serve(config(), { port: 0 });
    expect(lines('info').join('\n')).toMatch(/elicitation +off/);
  });

  it('quiet: no banner; logging.level warn: no banner either', async () => {
    running = await serve(config(), { port: 0, quiet: true });
    expect(lines('info').some((m) => m.includes('serving'))).toBe(false);
    await running.close();
    const seen: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => void seen.push(line));
    try {
      running = await serve({ info: { name: 'x', version: '1' }, logging: { level: 'warn' } }, { port: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(seen.some((l) => l.includes('serving'))).toBe(false);
  });

  it('warns in production without MCP_SESSION_SECRET, and beyond loopback without auth or allowedHosts', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('MCP_SESSION_SECRET', '');
    running = await serve(config(), { port: 0, host: '0.0.0.0' });
    const warnings = lines('warn');
    expect(warnings).toContainEqual(expect.stringContaining('no MCP_SESSION_SECRET'));
    expect(warnings).toContainEqual(expect.stringContaining('with no auth'));
    // Every way to check callers, not only the two a shared secret and a JWKS URL give.
    const noAuth = warnings.find((line) => line.includes('with no auth'));
    for (const way of ['auth: { issuer }', '{ jwksUrl }', '{ verify }', 'parley-mcp/introspection', '{ secret }'])
      expect(noAuth).toContain(way);
    expect(warnings).toContainEqual(expect.stringContaining('http.allowedHosts'));
  });

  it('warns when a shared store serves several instances and requestState has a per-process key', async () => {
    vi.stubEnv('VAULT_SECRET', '');
    vi.stubEnv('JWT_SECRET', '');
    const dir = mkdtempSync(join(tmpdir(), 'parley-banner-'));
    try {
      running = await serve(config({ sqlite: { path: join(dir, 'q.sqlite') }, elicitation: { enabled: true } }), { port: 0, quiet: true });
      expect(lines('warn')).toContainEqual(expect.stringContaining('Set the same VAULT_SECRET on every instance'));
      await running.close();
      running = undefined;
      logged.length = 0;
      vi.stubEnv('VAULT_SECRET', 'a-shared-secret-for-this-test');
      running = await serve(config({ sqlite: { path: join(dir, 'q.sqlite') }, elicitation: { enabled: true } }), { port: 0 });
      expect(lines('warn').some((w) => w.includes('VAULT_SECRET'))).toBe(false);
      expect(lines('info').join('\n')).toMatch(/requestState \(VAULT_SECRET\).*SQLite/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
