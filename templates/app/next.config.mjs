// Next.js loads parley-mcp from node_modules as it ships instead of bundling it, so the store drivers it loads only
// when a store needs them (ioredis, better-sqlite3) stay optional.
export default { serverExternalPackages: ['parley-mcp'] };
