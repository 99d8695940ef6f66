#!/usr/bin/env node
// The parley command's launcher: registers tsx, so the TypeScript CLI and the user's server module load as written.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
