// The test/security fixture served over stdio, for the spawned-process cases.
import { serveStdio } from 'parley-mcp/stdio';
import { config } from './fixture';

await serveStdio(config);
