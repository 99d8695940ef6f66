// The test/security fixture served over stdio with the framework's own logger, whose lines go to stderr: for the
// spawned-process cases that read the log.
import { serveStdio } from 'parley-mcp/stdio';
import { config } from './fixture';

const { logger: _quiet, ...logged } = config;
await serveStdio(logged);
