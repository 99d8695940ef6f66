#!/usr/bin/env node
// The parley command: runs the built CLI (dist/cli) with plain Node. In Parley's own repository, where src/ is and
// dist/ may be missing or stale, it registers tsx and runs the TypeScript source instead.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/index.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  // The source imports parley-mcp's own "#…" imports under the "parley-source" condition (package.json), as the tsx
  // children of parley dev and the npm scripts do with --conditions; this process adds it with a resolve hook.
  const { register: registerHook } = await import('node:module');
  registerHook(
    'data:text/javascript,export const resolve = (s, c, next) => next(s, { ...c, conditions: [...c.conditions, "parley-source"] });',
  );
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/cli/index.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
