// parley-mcp/testing: vitest's test and expect with an `mcp` fixture and MCP matchers, built on parley-mcp/client.

// Writing tests: the fixture-carrying test, expect with the MCP matchers, and their options.
export { test } from './fixture';
export type { McpOptions } from './fixture';
export { expect } from './matchers';

// Connecting by hand, for a second client or another revision inside one test.
export { connectMcp, DEFAULT_CAPABILITIES, McpTestClient } from './mcp';
export type { ConnectOptions } from './mcp';
export { ToolResult } from './tool-result';
export { TestTask } from './test-task';
