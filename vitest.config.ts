import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests import parley-mcp by name and get its TypeScript source: the "parley-source" export condition (package.json).
export default defineConfig({
  // Not "module": @opentelemetry/api's module build has extensionless imports that Node, which loads it, can't resolve.
  ssr: { resolve: { conditions: ['parley-source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
