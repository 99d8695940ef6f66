import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { PROJECTS, projectFiles } from './test/architecture/projects.js';

const files = projectFiles();

// Tests import parley-mcp by name and get its TypeScript source: the "parley-source" export condition (package.json).
// Three projects, chosen by what each file imports (test/architecture/projects.ts): unit runs in this process only
// (setup: any process it starts throws; its files share their workers' modules), services starts programs, package
// installs the packed package.
export default defineConfig({
  // Not "module": @opentelemetry/api's module build has extensionless imports that Node, which loads it, can't resolve.
  ssr: { resolve: { conditions: ['parley-source', ...defaultServerConditions.filter((c) => c !== 'module')] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: PROJECTS.map((name, order) => ({
      extends: true,
      test: {
        name,
        include: files[name],
        // A unit test starts no process and mostly waits (timers, loopback fetches): its files share their workers'
        // modules (not isolated: loading src/ again for each file was most of the time), in worker threads twice as
        // many as the cores, as a group of its own first; the projects that start programs keep vitest's defaults.
        ...(name === 'unit' ? { setupFiles: ['test/helpers/no-processes.ts'], pool: 'threads', isolate: false, maxWorkers: '200%' } : {}),
        sequence: { groupOrder: order },
      },
    })),
  },
});
