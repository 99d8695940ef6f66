// The stdio transport's door: one connection over newline-delimited JSON-RPC, and the pieces serveStdio needs.
export { StdioConnection } from './connection';
export { readLines } from './line-reader';
export { guardOutput } from './stdout-guard';
