#!/usr/bin/env node
// The parley command: runs the built CLI (dist/cli) with plain Node. In Parley's own repository, where src/ is and
// dist/ may be missing or stale, it registers tsx and runs the TypeScript source instead.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/index.ts', import.meta.url);
let cli;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import(source.href);
} else {
  cli = await import('../dist/cli/index.js');
}
process.exitCode = await cli.main(process.argv.slice(2));
