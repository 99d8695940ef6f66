// Where questions are kept: the store each config names, and the default file's folder and permissions.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidQuestionStoreError } from 'parley-mcp';
import { createQuestionService } from '../../src/app/questions';
import { parseConfig } from '../../src/model/config';

const root = mkdtempSync(join(tmpdir(), 'parley-home-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

async function start(extra: Record<string, unknown>, env: Record<string, string> = {}) {
  const lines: string[] = [];
  // The store's line is a debug line (#34: a start no longer opens with internal lines at the default level).
  const logger = { debug: (m: string) => lines.push(m), info() {}, warn() {}, error() {} };
  const config = parseConfig({
    info: { name: `store-${++n}`, version: '1' },
    ...extra,
    elicitation: { enabled: true, persistent: true, ...(extra.elicitation as object) },
  });
  const service = await createQuestionService(config, env, logger);
  await service?.store.backend.close();
  return lines.find((l) => l.startsWith('Created question store')) ?? '';
}

describe('the store persistent questions are kept in', () => {
  it('is questions.sqlite in $FRONTMCP_HOME by default, in a folder made owner-only', async () => {
    const home = join(root, 'fresh', '.frontmcp');
    expect(await start({}, { FRONTMCP_HOME: home })).toMatch(/type: 'sqlite'/);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'questions.sqlite')).mode & 0o077).toBe(0);
  });

  it('tightens a folder of ours that others could write to', async () => {
    const home = join(root, 'loose');
    mkdirSync(home, { mode: 0o777 });
    chmodSync(home, 0o777);
    await start({}, { FRONTMCP_HOME: home });
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });

  it('refuses a default file the group or others could read, unless questions are encrypted', async () => {
    const home = join(root, 'shared');
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(home, 'questions.sqlite'), '', { mode: 0o644 });
    chmodSync(join(home, 'questions.sqlite'), 0o644);
    const failure = start({}, { FRONTMCP_HOME: home });
    await expect(failure).rejects.toBeInstanceOf(InvalidQuestionStoreError);
    await expect(failure).rejects.toThrow(/the group or others could read or change .*questions\.sqlite: make it owner-only/);
    expect(await start({}, { FRONTMCP_HOME: home, MCP_ELICITATION_SECRET: 'secret' })).toMatch(/type: 'sqlite'.*encrypted: true/);
  });

  it('uses persistent.storage, else the server sqlite, and names it in the startup log', async () => {
    const path = join(root, 'named.sqlite');
    expect(await start({ elicitation: { persistent: { storage: { type: 'sqlite', sqlite: { path } } } } })).toMatch(/type: 'sqlite'/);
    expect(existsSync(path)).toBe(true);
    const serverPath = join(root, 'server.sqlite');
    expect(await start({ sqlite: { path: serverPath } })).toMatch(/type: 'sqlite'/);
    expect(existsSync(serverPath)).toBe(true);
    expect(await start({ elicitation: { persistent: { storage: { type: 'memory' } } } })).toMatch(/type: 'memory'/);
  });

  it('fails startup for storage it cannot open', async () => {
    await expect(start({ elicitation: { persistent: { storage: { type: 'redis' } } } })).rejects.toThrow(
      /storage \{ type: 'redis' \} needs Redis options: .*REDIS_URL in the environment/,
    );
    await expect(start({ elicitation: { persistent: { storage: { type: 'redis', redis: { provider: 'vercel-kv' } } } } })).rejects.toThrow(
      InvalidQuestionStoreError,
    );
    await expect(start({ elicitation: { persistent: { storage: { type: 'redis', redis: 'http://x' } } } })).rejects.toThrow(
      /storage\.redis/,
    );
  });
});
