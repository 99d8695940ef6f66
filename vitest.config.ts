import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests import parley-mcp by name and get its TypeScript source: the "parley-source" export condition (package.json).
export default defineConfig({
  ssr: { resolve: { conditions: ['parley-source', ...defaultServerConditions] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
