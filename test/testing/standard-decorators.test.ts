// A server module vitest 4 cannot compile because its decorators are standard ones (the tsconfig vitest reads for it
// has no experimentalDecorators): the fixture says so and what to set, instead of a bare SyntaxError (#34).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { serverNextTo } from '../../src/testing/server-module';

// Under .tmp, which the repository's tsconfig.json does not include: vitest compiles it with no experimentalDecorators,
// as it does a user's project whose tsconfig leaves them out.
const dir = join(import.meta.dirname, '../../.tmp/standard-decorators');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('names the tsconfig setting when vitest leaves standard decorators uncompiled', async () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'server.ts'),
    `import { App, FrontMcp } from 'parley-mcp';\n\n@App({ id: 'a', tools: [] })\nclass Main {}\n\n@FrontMcp({ info: { name: 'std', version: '1' }, apps: [Main] })\nexport default class Server {}\n`,
  );
  await expect(serverNextTo(join(dir, 'server.test.ts'))).rejects.toThrow(
    /vitest could not compile .*server\.ts \(Invalid or unexpected token\): vitest 4 compiles only legacy decorators.*Set "experimentalDecorators": true/,
  );
});
