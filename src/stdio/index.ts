// parley-mcp/stdio: serving a server to a client that starts it as a child process and speaks on its stdin/stdout.
export { serveStdio } from './serve-stdio';
export type { StdioOptions, StdioServer } from './serve-stdio';
